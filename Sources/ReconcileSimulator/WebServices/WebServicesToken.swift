import Foundation
import Reconcile

/// The simulator's tokens and cursors as the opaque strings the Web Services carry: base64 of their JSON.
enum WebServicesToken {
  static func string<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return ((try? encoder.encode(value)) ?? Data()).base64EncodedString()
  }

  /// Reads a token this server issued; anything else is `BAD_REQUEST` naming the key.
  static func value<T: Decodable>(_ type: T.Type, from string: String?, key: String) throws(WebServices.ServerError)
    -> T?
  {
    guard let string else { return nil }
    guard let data = Data(base64Encoded: string), let value = try? JSONDecoder().decode(T.self, from: data) else {
      throw WebServices.ServerError(
        code: .badRequest, reason: "\(key) '\(string.prefix(40))' is not one this server issued",
        httpStatus: WebServices.ErrorCode.badRequest.httpStatus)
    }
    return value
  }
}
