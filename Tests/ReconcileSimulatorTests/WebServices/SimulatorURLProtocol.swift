import Foundation
import Reconcile
import ReconcileSimulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Routes `URLSession` requests for `https://api.apple-cloudkit.com/database/1/CONTAINER/ENV/DATABASE/ENDPOINT` to a
/// simulated server, as a server-side app's CloudKit client would be tested: its HTTP layer stubbed, nothing else
/// changed. The caller is named by the `X-Simulated-User` and `X-Simulated-Device` headers.
final class SimulatorURLProtocol: URLProtocol {
  /// The server every stubbed session talks to, behind a lock: URL loading calls in from its own threads.
  final class World: @unchecked Sendable {
    private let lock = NSLock()
    private var server = SimulatedServer()

    func with<T>(_ body: (inout SimulatedServer) -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body(&server)
    }

    func reset() { with { $0 = SimulatedServer() } }
  }

  static let world = World()

  override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "api.apple-cloudkit.com" }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let url = request.url else { return }
    // database/1/CONTAINER/ENVIRONMENT/DATABASE/ENDPOINT…
    let parts = url.path.split(separator: "/").map(String.init)
    var status = 404
    var body = Data(#"{"serverErrorCode":"NOT_FOUND","reason":"no such endpoint"}"#.utf8)
    if parts.count >= 7, parts[0] == "database", let scope = DatabaseScope(rawValue: parts[4]),
      let endpoint = WebServices.Endpoint(rawValue: parts[5...].joined(separator: "/"))
    {
      let caller = ClientIdentity(
        userRecordName: request.value(forHTTPHeaderField: "X-Simulated-User"),
        deviceName: request.value(forHTTPHeaderField: "X-Simulated-Device") ?? "server")
      let sent = Self.body(of: request)
      (status, body) = Self.world.with { $0.respond(toBody: sent, endpoint: endpoint, database: scope, from: caller) }
    }
    let response = HTTPURLResponse(
      url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
    if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
    client?.urlProtocol(self, didLoad: body)
    client?.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}

  /// The request body, whether URL loading kept it as data or turned it into a stream.
  private static func body(of request: URLRequest) -> Data {
    if let data = request.httpBody { return data }
    guard let stream = request.httpBodyStream else { return Data() }
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while stream.hasBytesAvailable {
      let count = stream.read(&buffer, maxLength: buffer.count)
      guard count > 0 else { break }
      data.append(contentsOf: buffer[..<count])
    }
    return data
  }
}
