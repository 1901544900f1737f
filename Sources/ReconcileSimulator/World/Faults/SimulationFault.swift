public import Foundation
public import Reconcile

/// A fault the simulation injects.
public enum SimulationFault: Sendable, Hashable {
  /// The device's next request never reaches the server.
  case loseRequest(device: String)
  /// The server handles the device's next request, but the answer is lost.
  case loseResponse(device: String)
  /// The device's next request reaches the server twice, the copy ``Simulation/duplicateLag`` after the original.
  case duplicate(device: String)
  /// The device's next request arrives `seconds` late.
  case delay(device: String, seconds: Int)
  /// The server answers the device's next request with a transient error (`zoneBusy`, `networkFailure`,
  /// `serviceUnavailable` or `requestRateLimited`) asking for `retryAfter` seconds.
  case transient(device: String, error: String, retryAfter: Int)
  /// The server answers one save of the device's next save request with a transient error (`zoneBusy`,
  /// `networkFailure`, `serviceUnavailable` or `requestRateLimited`) asking for `retryAfter` seconds; the rest of the
  /// request is handled as usual (in an atomic zone its other items fail with `batchRequestFailed`).
  case itemTransient(device: String, error: String, retryAfter: Int)
  /// The server throttles every request for `seconds`.
  case throttle(seconds: Int)
  /// Every change token of the zone expires.
  case expireTokens
  /// Every database change token of the user's private database expires.
  case expireDatabaseTokens
  /// The user's iCloud storage is full for `seconds`: saves fail with `quotaExceeded`, then space is freed.
  case quotaFull(seconds: Int)
  /// The zone and its records are deleted (as by another client).
  case deleteZone
  /// The user deletes the app's data in Settings: the zone is purged. Devices must drop what they hold of it and not
  /// upload it again.
  case purgeZone
  /// The user resets their encrypted data during account recovery: the zone is deleted, and devices should upload
  /// what they hold again.
  case resetEncryptedData
  /// `device`'s stored copy of `record` is damaged on disk.
  case corruptStorage(device: String, record: String)
  /// `device` crashes in the middle of handling its next answer that takes more than `afterWrites` persistence
  /// writes, after that many: any write boundary of a handler, not only the first.
  case tornCrash(device: String, afterWrites: Int = 1)
  /// The server answers the next `count` requests (from `device`, or from anyone for `nil`) with the CloudKit error
  /// `code`, asking for `retryAfter` seconds where the error carries a wait. ``injectableErrors`` lists the codes.
  case serverError(code: CloudKitError.Code, count: Int, device: String?, retryAfter: TimeInterval)
  /// `device`'s next save reaches the server, then `device` loses its network before the answer arrives.
  case disconnectAfterSave(device: String)

  /// The part of the world a fault breaks, which holds it until it strikes.
  public enum Part: String, Sendable, Hashable, CaseIterable {
    /// The network between the devices and the server: a request or an answer lost, a copy, a delay, a disconnect.
    case network
    /// What surrounds a client on its device: its storage, its process.
    case host
    /// The server: its errors, throttling, tokens, storage quota and zones.
    case server
  }

  /// The part of the world the fault breaks. A transient `networkFailure` is the network's: the request lands and its
  /// answer is lost.
  public var part: Part {
    switch self {
    case .loseRequest, .loseResponse, .duplicate, .delay, .disconnectAfterSave: .network
    case .transient(_, let error, _): error == "networkFailure" ? .network : .server
    case .corruptStorage, .tornCrash: .host
    case .itemTransient, .throttle, .expireTokens, .expireDatabaseTokens, .quotaFull, .deleteZone, .purgeZone,
      .resetEncryptedData, .serverError:
      .server
    }
  }

  /// The device the fault targets, if any.
  public var device: String? {
    switch self {
    case .loseRequest(let device), .loseResponse(let device), .duplicate(let device), .delay(let device, _),
      .transient(let device, _, _), .itemTransient(let device, _, _), .corruptStorage(let device, _),
      .tornCrash(let device, _), .disconnectAfterSave(let device):
      device
    case .serverError(_, _, let device, _): device
    case .throttle, .expireTokens, .expireDatabaseTokens, .quotaFull, .deleteZone, .purgeZone, .resetEncryptedData:
      nil
    }
  }

  /// The CloudKit errors a `serverError` fault can inject: those whose meaning needs no record or zone.
  public static let injectableErrors: [CloudKitError.Code] = [
    .serviceUnavailable, .requestRateLimited, .zoneBusy, .networkFailure, .networkUnavailable, .internalError,
    .serverResponseLost, .notAuthenticated, .quotaExceeded, .badDatabase, .accountTemporarilyUnavailable,
  ]

  /// The simulated server's error for an injected `code`, or `nil` for a code that cannot be injected.
  static func injectedError(_ code: CloudKitError.Code, retryAfter: TimeInterval) -> CloudKitError? {
    switch code {
    case .serviceUnavailable: .serviceUnavailable(retryAfter: retryAfter)
    case .requestRateLimited: .requestRateLimited(retryAfter: retryAfter)
    case .zoneBusy: .zoneBusy(retryAfter: retryAfter)
    case .networkFailure: .networkFailure(retryAfter: nil)
    case .networkUnavailable: .networkUnavailable
    case .internalError: .internalError("injected by the playground")
    case .serverResponseLost: .serverResponseLost
    case .notAuthenticated: .notAuthenticated
    case .quotaExceeded: .quotaExceeded
    case .badDatabase: .badDatabase(reason: "injected by the playground")
    case .accountTemporarilyUnavailable: .accountTemporarilyUnavailable(retryAfter: retryAfter)
    default: nil
    }
  }

  /// The transient errors a `transient` fault can name.
  package static let transientErrorNames = ["zoneBusy", "networkFailure", "serviceUnavailable", "requestRateLimited"]

  /// The injectable error named `name` (CloudKit's name for its code), or `nil` for one that cannot be injected.
  static func injectableError(named name: String) -> CloudKitError.Code? { injectableErrors.first { $0.name == name } }

  /// The server error for a `transient` fault's name, or `nil` for an unknown name: the injected error, except that a
  /// transient network failure asks for its wait too.
  static func transientError(named name: String, retryAfter: Int) -> CloudKitError? {
    guard transientErrorNames.contains(name), let code = injectableError(named: name) else { return nil }
    let wait = TimeInterval(retryAfter)
    return code == .networkFailure ? .networkFailure(retryAfter: wait) : injectedError(code, retryAfter: wait)
  }
}
