import Foundation

/// A `CKError` as a typed Reconcile error: the code, the retry delay, and for `serverRecordChanged` the three versions
/// of the record as a ``Conflict``.
///
/// ```swift
/// } catch let error as CKError {
///   let failure = try CloudKitError(error)
///   if failure.code == .serverRecordChanged, let conflict = failure.conflict {
///     let resolved = try resolver.resolve(conflict)
///     resolved.apply(to: error.serverRecord!)      // save the server's record, carrying its tag
///   } else if failure.isTransient { retry(after: failure.retryAfter) }
/// }
/// ```
public struct CloudKitError: Error, Sendable, Hashable, DescribedError {
  /// `CKError.Code`, by its raw value.
  public enum Code: Sendable, Hashable, CustomStringConvertible {
    /// 1.
    case internalError
    /// 2: some items failed; see ``CloudKitError/partialErrors``.
    case partialFailure
    /// 3.
    case networkUnavailable
    /// 4.
    case networkFailure
    /// 6.
    case serviceUnavailable
    /// 7.
    case requestRateLimited
    /// 9.
    case notAuthenticated
    /// 10.
    case permissionFailure
    /// 11.
    case unknownItem
    /// 12.
    case invalidArguments
    /// 14: the save lost a race; ``CloudKitError/conflict`` holds the three versions.
    case serverRecordChanged
    /// 15.
    case serverRejectedRequest
    /// 18.
    case incompatibleVersion
    /// 19.
    case constraintViolation
    /// 21.
    case changeTokenExpired
    /// 22: another item of an atomic batch failed.
    case batchRequestFailed
    /// 23.
    case zoneBusy
    /// 24.
    case badDatabase
    /// 25.
    case quotaExceeded
    /// 26.
    case zoneNotFound
    /// 27.
    case limitExceeded
    /// 28.
    case userDeletedZone
    /// 31.
    case referenceViolation
    /// 34.
    case serverResponseLost
    /// 36.
    case accountTemporarilyUnavailable
    /// Any other code, by raw value.
    case other(Int)

    private static let table: [(Code, Int)] = [
      (.internalError, 1), (.partialFailure, 2), (.networkUnavailable, 3), (.networkFailure, 4),
      (.serviceUnavailable, 6), (.requestRateLimited, 7), (.notAuthenticated, 9), (.permissionFailure, 10),
      (.unknownItem, 11), (.invalidArguments, 12), (.serverRecordChanged, 14), (.serverRejectedRequest, 15),
      (.incompatibleVersion, 18), (.constraintViolation, 19), (.changeTokenExpired, 21), (.batchRequestFailed, 22),
      (.zoneBusy, 23), (.badDatabase, 24), (.quotaExceeded, 25),
      (.zoneNotFound, 26), (.limitExceeded, 27), (.userDeletedZone, 28), (.referenceViolation, 31),
      (.serverResponseLost, 34), (.accountTemporarilyUnavailable, 36),
    ]

    /// The code for a `CKError.Code` raw value.
    /// - Parameter rawValue: `CKError.Code.rawValue`.
    public init(rawValue: Int) {
      self = Self.table.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
    }

    /// `CKError.Code.rawValue`.
    public var rawValue: Int {
      if case .other(let value) = self { return value }
      return Self.table.first { $0.0 == self }?.1 ?? -1
    }

    /// The case name and raw value, such as `serverRecordChanged (14)`.
    public var description: String {
      if case .other(let value) = self { return "CKError \(value)" }
      return "\(name) (\(rawValue))"
    }

    /// CloudKit's name for the code, such as `serverRecordChanged`; `other` for a code this version does not know.
    public var name: String {
      switch self {
      case .internalError: "internalError"
      case .partialFailure: "partialFailure"
      case .networkUnavailable: "networkUnavailable"
      case .networkFailure: "networkFailure"
      case .serviceUnavailable: "serviceUnavailable"
      case .requestRateLimited: "requestRateLimited"
      case .notAuthenticated: "notAuthenticated"
      case .permissionFailure: "permissionFailure"
      case .unknownItem: "unknownItem"
      case .invalidArguments: "invalidArguments"
      case .serverRecordChanged: "serverRecordChanged"
      case .serverRejectedRequest: "serverRejectedRequest"
      case .incompatibleVersion: "incompatibleVersion"
      case .constraintViolation: "constraintViolation"
      case .changeTokenExpired: "changeTokenExpired"
      case .batchRequestFailed: "batchRequestFailed"
      case .zoneBusy: "zoneBusy"
      case .badDatabase: "badDatabase"
      case .quotaExceeded: "quotaExceeded"
      case .zoneNotFound: "zoneNotFound"
      case .limitExceeded: "limitExceeded"
      case .userDeletedZone: "userDeletedZone"
      case .referenceViolation: "referenceViolation"
      case .serverResponseLost: "serverResponseLost"
      case .accountTemporarilyUnavailable: "accountTemporarilyUnavailable"
      case .other: "other"
      }
    }

    /// Whether the same request may succeed later unchanged: network trouble, an unavailable or busy service, rate
    /// limiting, a lost response, a temporarily unavailable account.
    public var isTransient: Bool {
      switch self {
      case .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy,
        .serverResponseLost, .accountTemporarilyUnavailable:
        true
      default: false
      }
    }
  }

  /// The code.
  public var code: Code
  /// Seconds to wait before retrying, when CloudKit said (`retryAfterSeconds`).
  public var retryAfter: Double?
  /// Everything else an error may carry, behind one reference: most errors carry none of it, and errors are copied
  /// along every answer a sync engine handles.
  private var details: Details?

  /// For ``Code/serverRecordChanged``: the record the app sent (`clientRecord`).
  public var clientRecord: Record? {
    get { details?.fields.clientRecord }
    set { update { $0.clientRecord = newValue } }
  }
  /// For ``Code/serverRecordChanged``: the version the app's record was based on, when the server still had it
  /// (`ancestorRecord`).
  public var ancestorRecord: Record? {
    get { details?.fields.ancestorRecord }
    set { update { $0.ancestorRecord = newValue } }
  }
  /// For ``Code/serverRecordChanged``: the server's version (`serverRecord`) — CloudKit attaches it only "if
  /// available"; without it, fetch the record's zone before merging.
  public var serverRecord: Record? {
    get { details?.fields.serverRecord }
    set { update { $0.serverRecord = newValue } }
  }
  /// For ``Code/partialFailure``: each failed record's error, by its ID (`partialErrorsByItemID`).
  public var partialErrors: [RecordID: CloudKitError] {
    get { details?.fields.partialErrors ?? [:] }
    set { update { $0.partialErrors = newValue } }
  }
  /// The record the error is about, when it names one: the Web Services' `recordName`, a simulated server's missing
  /// record (``Code/unknownItem``) or missing reference (``Code/referenceViolation``).
  public var recordID: RecordID? {
    get { details?.fields.recordID }
    set { update { $0.recordID = newValue } }
  }
  /// The zone the error is about, when it names one: the Web Services' `zoneID`, a zone that does not exist
  /// (``Code/zoneNotFound``) or that the user deleted (``Code/userDeletedZone``).
  public var zoneID: ZoneID? {
    get { details?.fields.zoneID }
    set { update { $0.zoneID = newValue } }
  }
  /// CloudKit's own message.
  public var message: String? {
    get { details?.fields.message }
    set { update { $0.message = newValue } }
  }

  /// For ``Code/serverRecordChanged`` with the server's version attached: the record the app sent, the ancestor it was
  /// based on, and the server's. Setting it sets ``clientRecord``, ``ancestorRecord`` and ``serverRecord``.
  public var conflict: Conflict? {
    get {
      guard let clientRecord, let serverRecord else { return nil }
      return Conflict(client: clientRecord, ancestor: ancestorRecord, server: serverRecord)
    }
    set {
      update {
        $0.clientRecord = newValue?.client
        $0.ancestorRecord = newValue?.ancestor
        $0.serverRecord = newValue?.server
      }
    }
  }

  /// Creates an error.
  /// - Parameters:
  ///   - code: The code.
  ///   - retryAfter: Seconds to wait before retrying.
  ///   - conflict: The conflict of a `serverRecordChanged` (set ``serverRecord`` `nil` afterwards for one without it).
  ///   - partialErrors: Per-item errors of a `partialFailure`.
  ///   - recordID: The record the error names.
  ///   - zoneID: The zone the error names.
  ///   - message: CloudKit's message.
  public init(
    code: Code, retryAfter: Double? = nil, conflict: Conflict? = nil, partialErrors: [RecordID: CloudKitError] = [:],
    recordID: RecordID? = nil, zoneID: ZoneID? = nil, message: String? = nil
  ) {
    self.code = code
    self.retryAfter = retryAfter
    let fields = Fields(
      clientRecord: conflict?.client, ancestorRecord: conflict?.ancestor, serverRecord: conflict?.server,
      partialErrors: partialErrors, recordID: recordID, zoneID: zoneID, message: message)
    details = fields.isEmpty ? nil : Details(fields)
  }

  /// What an error carries beyond its code and delay.
  private struct Fields: Sendable, Hashable {
    var clientRecord: Record?
    var ancestorRecord: Record?
    var serverRecord: Record?
    var partialErrors: [RecordID: CloudKitError] = [:]
    var recordID: RecordID?
    var zoneID: ZoneID?
    var message: String?

    var isEmpty: Bool {
      clientRecord == nil && ancestorRecord == nil && serverRecord == nil && partialErrors.isEmpty && recordID == nil
        && zoneID == nil && message == nil
    }
  }

  /// The fields, immutable: a change replaces the whole box, so copies never share a mutation.
  private final class Details: Sendable {
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }

  private mutating func update(_ change: (inout Fields) -> Void) {
    var fields = details?.fields ?? Fields()
    change(&fields)
    details = fields.isEmpty ? nil : Details(fields)
  }

  /// Equal when the code, the delay and everything else carried are.
  public static func == (lhs: CloudKitError, rhs: CloudKitError) -> Bool {
    lhs.code == rhs.code && lhs.retryAfter == rhs.retryAfter
      && (lhs.details === rhs.details || lhs.details?.fields == rhs.details?.fields)
  }

  /// Hashes the code, the delay and everything else carried.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(retryAfter)
    hasher.combine(details?.fields)
  }

  /// Whether retrying later may succeed: a transient code, or CloudKit gave a retry delay.
  public var isTransient: Bool { code.isTransient || retryAfter != nil }

  /// The code, the message, the retry delay and the number of failed items.
  public var description: String {
    var text = "CloudKit error \(code)"
    if let message { text += ": \(message)" }
    if let retryAfter { text += "; retry after \(retryAfter) s" }
    if !partialErrors.isEmpty { text += "; \(partialErrors.count) items failed" }
    if let conflict { text += "; conflict on \(conflict.recordID)" }
    return text
  }
}
