/// Web Services record documents shared by the wire-format tests and the fuzz seed corpus.
public enum WireExamples {
  /// The response example of cloudkit-semantics.md §7 (the record part): every system field, five field types.
  public static let response = """
    {"recordName":"note-42","recordType":"Note","recordChangeTag":"k4",
     "fields":{"title":{"value":"Hi","type":"STRING"},"pinned":{"value":1,"type":"INT64"},
      "due":{"value":1700000000000,"type":"TIMESTAMP"},"tags":{"value":["a","b"],"type":"STRING_LIST"},
      "list":{"value":{"recordName":"L1","action":"NONE"},"type":"REFERENCE"}},
     "pluginFields":{},
     "created":{"timestamp":1699990000000,"userRecordName":"_9a06","deviceID":"2"},
     "modified":{"timestamp":1700000001234,"userRecordName":"_9a06","deviceID":"2"},
     "deleted":false,"zoneID":{"zoneName":"Notes","ownerRecordName":"_9a06","zoneType":"REGULAR_CUSTOM_ZONE"}}
    """
}
