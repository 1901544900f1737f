import Foundation
import Reconcile

/// Fuzzes `Record: Decodable` over CloudKit Web Services JSON. Errors must be `DecodingError`s; a record that decodes
/// and validates is encoded again and must decode equal.
enum WireJSONCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    let record: Record
    do {
      record = try JSONDecoder().decode(Record.self, from: data)
    } catch let error as DecodingError {
      try FuzzFinding.requireMessage(String(describing: error), from: "Record.init(from:)")
      return
    } catch {
      throw FuzzFinding("Record.init(from:) threw \(type(of: error)), not DecodingError: \(error)")
    }
    guard (try? record.validate()) != nil else { return }
    let again: Record
    do {
      again = try JSONDecoder().decode(Record.self, from: try JSONEncoder().encode(record))
    } catch {
      throw FuzzFinding("a decoded, valid record does not survive encoding: \(error)")
    }
    if again != record { throw FuzzFinding("record changed on a JSON round trip: \(record) became \(again)") }
  }
}
