import Foundation
import Reconcile

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The smallest server-side CloudKit Web Services client: it posts typed requests and decodes typed responses. It
/// knows nothing of the simulator; only its `URLSession` is stubbed in tests.
struct TinyCloudKitClient: Sendable {
  let session: URLSession
  let container: String
  let user: String
  let device: String

  func send(_ request: WebServices.Request, database: String = "private") async throws -> WebServices.Response {
    let url = URL(
      string: "https://api.apple-cloudkit.com/database/1/\(container)/development/\(database)/\(request.endpoint)")
    guard let url else { throw URLError(.badURL) }
    var http = URLRequest(url: url)
    http.httpMethod = request.endpoint == .zonesList ? "GET" : "POST"
    if request.endpoint != .zonesList { http.httpBody = try request.jsonData() }
    http.setValue(user, forHTTPHeaderField: "X-Simulated-User")
    http.setValue(device, forHTTPHeaderField: "X-Simulated-Device")
    let (data, status) = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<(Data, Int), any Error>) in
      session.dataTask(with: http) { data, response, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
        }
      }.resume()
    }
    return try WebServices.Response(
      json: data, endpoint: request.endpoint, httpStatus: status, zone: request.contextZone)
  }
}
