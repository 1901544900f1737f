import Foundation

/// Aligned plain-text tables: the playground's one way of printing rows.
package enum TextTable {
  /// Columns padded to their widest cell, two spaces apart; the first row is the header when `header` is true.
  /// - Parameters:
  ///   - rows: The cells, row by row; short rows are padded with empty cells.
  ///   - header: Whether to underline the first row.
  /// - Returns: The table, each line ending in a newline; trailing spaces trimmed.
  package static func render(_ rows: [[String]], header: Bool = true) -> String {
    guard let columns = rows.map(\.count).max(), columns > 0 else { return "" }
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ row: [String]) -> String {
      var text = ""
      for index in 0..<columns {
        let cell = index < row.count ? row[index] : ""
        text += index == columns - 1 ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
      }
      while text.hasSuffix(" ") { text.removeLast() }
      return text + "\n"
    }
    var text = ""
    for (index, row) in rows.enumerated() {
      text += line(row)
      if header && index == 0 { text += line(widths.map { String(repeating: "-", count: $0) }) }
    }
    return text
  }
}

extension TextTable {
  /// `text` broken at spaces into lines of at most `width` characters (a longer word gets a line of its own), each
  /// line after the first indented by `indent` spaces.
  package static func wrap(_ text: String, width: Int = 100, indent: Int = 0) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let limit = lines.isEmpty ? width : width - indent
      if !line.isEmpty && line.count + 1 + word.count > limit {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.enumerated().map { ($0.offset == 0 ? "" : String(repeating: " ", count: indent)) + $0.element }
      .joined(separator: "\n") + "\n"
  }
}

/// JSON the playground prints: sorted keys and indentation, so the same data prints the same bytes.
package enum JSONText {
  /// Encodes `value` as pretty, key-sorted JSON followed by a newline.
  /// - Throws: The encoder's error, for a value that cannot be written (a record that fails `validate()`, say).
  package static func render(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }
}
