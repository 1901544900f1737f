import Foundation
import Reconcile

/// Fuzzes the Web Services body readers: `WebServices.Body(json:)`, which recognises a document's shape, and the
/// records and zones response decoders. Properties:
/// - every error says what is wrong;
/// - whatever `WireJSON.check` accepts, `JSONSerialization` parses too;
/// - a body that decodes is encoded again and decodes equal (records that fail `validate()` excepted: they cannot be
///   written, and encoding says so).
enum WebServicesCheck {
  static func check(_ data: Data) throws(FuzzFinding) {
    switch Result(catching: { () throws(WireJSONError) in try WebServices.Body(json: data) }) {
    case .success(let body): try roundTrip(body)
    case .failure(let error): try FuzzFinding.requireMessage(error.description, from: "WebServices.Body(json:)")
    }
    for endpoint in [WebServices.Endpoint.recordsModify, .zonesList, .changesZone] {
      switch Result(catching: { () throws(WireJSONError) in try WebServices.Response(json: data, endpoint: endpoint) })
      {
      case .success(let response): try roundTrip(.response(response, endpoint: endpoint))
      case .failure(let error):
        try FuzzFinding.requireMessage(error.description, from: "WebServices.Response(json:endpoint: \(endpoint))")
      }
    }
    if (try? WireJSON.check(data)) != nil,
      (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil
    {
      throw FuzzFinding("WireJSON.check accepted a document Foundation cannot parse")
    }
  }

  private static func roundTrip(_ body: WebServices.Body) throws(FuzzFinding) {
    let encoded: Data
    do {
      switch body {
      case .record(let record): encoded = try record.wireJSON()
      case .share(let share): encoded = try share.wireJSON()
      case .request(let request): encoded = try request.jsonData()
      case .response(let response, _): encoded = try response.jsonData()
      }
    } catch {
      return  // A record that breaks CloudKit's rules decodes, but is refused on the way out, by design.
    }
    let again: WebServices.Body
    do {
      switch body {
      case .record, .share, .response(_, nil): again = try WebServices.Body(json: encoded)
      case .request(let request): again = .request(try WebServices.Request(json: encoded, endpoint: request.endpoint))
      case .response(let response, let endpoint?):
        let zone = response.records?.zoneID
        again = .response(
          try WebServices.Response(json: encoded, endpoint: endpoint, httpStatus: response.httpStatus, zone: zone),
          endpoint: endpoint)
      }
    } catch {
      throw FuzzFinding("a decoded \(body.kind) does not survive another round trip: \(error)")
    }
    if again != body { throw FuzzFinding("a round trip changed a \(body.kind): \(body) became \(again)") }
  }
}
