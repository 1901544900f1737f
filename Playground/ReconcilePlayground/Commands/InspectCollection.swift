import Foundation
import Reconcile

/// A file of captured bodies, as people collect them from logs and write-ups: a JSON object whose `bodies` or
/// `responses` array holds entries `{"body": …, "http": STATUS?, "endpoint": "…records/modify…"?}`. `inspect` reads
/// each body as the endpoint and status say, or by its shape when they are absent. icloud.com's batched requests and
/// responses, `{"batch": [body, …]}`, are collections too: each element is one body, read by its shape.
struct InspectCollection {
  struct Entry {
    let label: String
    let body: Result<WebServices.Body, WireJSONError>
  }

  let entries: [Entry]

  /// Reads a collection, or returns `nil` when the data is not one (so the caller reports the other formats' reasons).
  init?(_ data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    if object.count == 1, let batch = object["batch"] as? [[String: Any]], !batch.isEmpty {
      entries = batch.enumerated().map { index, body in
        let label = "[\(index)] batch"
        guard let bytes = try? JSONSerialization.data(withJSONObject: body) else {
          return Entry(label: label, body: .failure(.invalidBody("batch", path: "[\(index)]", reason: "not JSON")))
        }
        return Entry(label: label, body: Result { () throws(WireJSONError) in try WebServices.Body(json: bytes) })
      }
      return
    }
    guard let list = (object["bodies"] ?? object["responses"]) as? [[String: Any]], !list.isEmpty,
      list.allSatisfy({ $0["body"] != nil })
    else { return nil }
    entries = list.enumerated().map { index, entry in
      let status = entry["http"] as? Int
      let endpointText = entry["endpoint"] as? String
      let endpoint = endpointText.flatMap { text in
        WebServices.Endpoint.allCases.first { text.contains($0.rawValue) }
      }
      var label = "[\(index)]"
      if let endpoint { label += " \(endpoint)" }
      if let status { label += " HTTP \(status)" }
      guard let body = entry["body"], let bytes = try? JSONSerialization.data(withJSONObject: body) else {
        return Entry(label: label, body: .failure(.invalidBody("entry", path: "body", reason: "not a JSON object")))
      }
      let decoded: Result<WebServices.Body, WireJSONError>
      if let status, status >= 400 {
        decoded = Result { () throws(WireJSONError) in
          .response(
            try WebServices.Response(json: bytes, endpoint: endpoint ?? .recordsModify, httpStatus: status),
            endpoint: endpoint)
        }
      } else {
        decoded = Result { () throws(WireJSONError) in try WebServices.Body(json: bytes) }
      }
      return Entry(label: label, body: decoded)
    }
  }

  /// Whether every entry decoded.
  var allDecoded: Bool {
    entries.allSatisfy { if case .success = $0.body { true } else { false } }
  }
}
