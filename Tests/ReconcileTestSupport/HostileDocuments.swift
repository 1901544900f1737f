public import Foundation

/// Big Web Services record documents, as the hostile-input tests and the benchmark's hostile section build them.
public enum HostileDocuments {
  /// A `Note` whose one `STRING` field `s` holds `bytes` letters.
  public static func stringRecord(bytes: Int) -> Data {
    Data(#"{"recordName":"n","recordType":"Note","fields":{"s":{"value":""#.utf8) + Data(repeating: 0x78, count: bytes)
      + Data(#"","type":"STRING"}}}"#.utf8)
  }

  /// A `Note` with `count` integer fields `f0`, `f1`, …; with `duplicateLast`, `f0` once more at the end.
  public static func fieldsRecord(count: Int, duplicateLast: Bool = false) -> Data {
    var fields = (0..<count).map { #""f\#($0)":{"value":\#($0)}"# }
    if duplicateLast { fields.append(#""f0":{"value":0}"#) }
    return Data((#"{"recordName":"n","recordType":"Note","fields":{"# + fields.joined(separator: ",") + "}}").utf8)
  }
}
