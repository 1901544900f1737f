import Foundation

extension SimulationFault {
  /// The fault as a script line, in the language's current form: `fault lose-response d1`. The parser reads it back
  /// as the same fault.
  package var scriptLine: String {
    switch self {
    case .loseRequest(let device): return "fault lose-request \(device)"
    case .loseResponse(let device): return "fault lose-response \(device)"
    case .duplicate(let device): return "fault duplicate \(device)"
    case .delay(let device, let wait): return "fault delay \(device) \(wait)s"
    case .transient(let device, let error, let wait): return "fault transient \(device) \(error) \(wait)s"
    case .itemTransient(let device, let error, let wait): return "fault item-transient \(device) \(error) \(wait)s"
    case .throttle(let wait): return "fault throttle \(wait)s"
    case .expireTokens: return "fault expire-tokens"
    case .expireDatabaseTokens: return "fault expire-database-tokens"
    case .quotaFull(let wait): return "fault quota-full \(wait)s"
    case .deleteZone: return "fault delete-zone"
    case .purgeZone: return "fault purge-zone"
    case .resetEncryptedData: return "fault reset-encrypted-data"
    case .corruptStorage(let device, let record):
      return "fault corrupt \(device) \(RecordPath(recordType: Simulation.recordType, recordName: record))"
    case .tornCrash(let device, let after): return "fault torn-crash \(device)" + (after == 1 ? "" : " after \(after)")
    case .disconnectAfterSave(let device): return "fault disconnect-after-save \(device)"
    case .serverError(let code, let count, let device, let wait):
      let retry = DurationSyntax.wholeSeconds(wait).map { "\($0)s" } ?? DurationSyntax.render(wait)
      return "fault error \(code.name) \(count)" + (device.map { " --device \($0)" } ?? "")
        + (wait == ScriptParser.defaultRetryAfter ? "" : " --retry-after \(retry)")
    }
  }

  /// The line that ends every fault.
  package static let clearLine = "fault clear"
}
