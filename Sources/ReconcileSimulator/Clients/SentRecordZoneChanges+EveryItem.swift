import Reconcile

extension SyncEngine.SentRecordZoneChanges {
  /// A save request's answer where every item failed with one error — the request refused or lost whole — as
  /// CKSyncEngine reports it: each record and each deletion of `request` with the error. A save sent beside a deletion
  /// of its ID is reported as the deletion.
  init(everyItemOf request: ModifyRecordsRequest, failedWith error: CloudKitError) {
    let reported = error.asReported
    var deletes: [RecordID: CloudKitError] = [:]
    for id in request.deleting { deletes[id] = reported }
    self.init(
      savedRecords: [],
      failedRecordSaves: request.saving.filter { !request.deleting.contains($0.recordID) }.map {
        SyncEngine.FailedRecordSave(record: $0, error: reported)
      },
      deletedRecordIDs: [], failedRecordDeletes: deletes)
  }
}
