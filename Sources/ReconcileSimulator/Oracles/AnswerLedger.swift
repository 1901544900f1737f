import Reconcile

/// Which saves and deletions a device never learned the fate of — a lost request or answer, an answer it gave up on,
/// a duplicate's late copy, a crash in the middle of an answer — written into ``UserHistory``'s unanswered sets, which
/// the judge reads as doubt.
struct AnswerLedger: Sendable {
  /// Per device (by index), the save requests whose answer it took.
  private var answered: [Int: Set<Int>] = [:]

  func requestLost(_ request: ServerRequest, device: String, into history: inout UserHistory) {
    if case .modifyRecords(let request) = request {
      history.recordUnanswered(saved: request.saving.map(\.recordID), device: device)
    }
  }

  /// Items the server answered `networkFailure` were saved and their answers lost: the device never learns they landed.
  func serverAnswered(_ answer: Result<ServerReply, CloudKitError>, device: String, into history: inout UserHistory) {
    guard case .success(.modifyRecords(let reply)) = answer, !reply.failures.isEmpty else { return }
    let lost = reply.failures.compactMap { id, error -> RecordID? in
      if error.code == .networkFailure { return id }
      return nil
    }
    if !lost.isEmpty { history.recordUnanswered(saved: lost.sorted(), device: device) }
  }

  func answerLost(
    saving: [RecordID], _ answer: Result<ServerReply, CloudKitError>, device: String, into history: inout UserHistory
  ) {
    history.recordUnanswered(saved: saving, deleted: Self.deleted(in: answer), device: device)
  }

  mutating func answerDelivered(
    _ answer: Result<ServerReply, CloudKitError>, requestID: Int, saving: [RecordID], awaited: Bool, index: Int,
    device: String, into history: inout UserHistory
  ) {
    let deleted = Self.deleted(in: answer)
    guard !saving.isEmpty || !deleted.isEmpty else { return }
    if awaited {
      answered[index, default: []].insert(requestID)
    } else if answered[index]?.contains(requestID) != true {
      // The device gave up on this request (timed out, went offline, crashed): it never learns what landed.
      history.recordUnanswered(saved: saving, deleted: deleted, device: device)
    } else if case .success(.modifyRecords(let reply)) = answer {
      // A duplicate's copy landed saves or deletions after the device took the first copy's answer: it never learns
      // of them.
      history.recordUnanswered(saved: reply.saved.map(\.recordID), deleted: reply.deleted, device: device)
    }
  }

  /// The records an answer says were deleted.
  static func deleted(in answer: Result<ServerReply, CloudKitError>) -> [RecordID] {
    if case .success(.modifyRecords(let reply)) = answer { return reply.deleted }
    return []
  }
}
