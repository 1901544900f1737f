import Foundation
public import Reconcile

/// A local action the device cannot take, naming the record.
public enum DeviceError: Error, Sendable, Hashable, DescribedError {
  /// A device name must have 1 to 255 UTF-8 bytes.
  case invalidDeviceName(String)
  /// No record with this ID on the device.
  case recordNotFound(RecordID)
  /// The device's stored copy of the record was damaged (storage corruption): it was thrown away and is being
  /// fetched again, so the edit was not made.
  case recordDamaged(RecordID)
  /// A record with this ID already exists on the device.
  case recordExists(RecordID)
  /// The record breaks CloudKit's rules; it was not stored.
  case invalidRecord(RecordValidationError)
  /// The device's schema refuses the edit (an unknown record type, or a record from a newer app it must not change).
  case schema(SchemaHalt)
  /// The resolver's bookkeeping could not be written (malformed stamps or a clock that cannot tick).
  case bookkeeping(RecordID, String)
  /// The client keeps no encrypted values, so it cannot edit one.
  case encryptedValuesUnsupported

  /// A sentence naming the record and the problem.
  public var description: String {
    switch self {
    case .invalidDeviceName(let name): "invalid device name \"\(name.prefix(60))\": it needs 1 to 255 UTF-8 bytes"
    case .recordNotFound(let id): "no record \(id) on this device"
    case .recordDamaged(let id): "the stored copy of \(id) was damaged; it was discarded and is being fetched again"
    case .recordExists(let id): "record \(id) already exists on this device"
    case .invalidRecord(let error): "invalid record: \(error)"
    case .schema(let halt): halt.description
    case .bookkeeping(let id, let reason): "could not update the bookkeeping of \(id): \(reason)"
    case .encryptedValuesUnsupported:
      "this client edits plain values only; encrypted values need the reference client"
    }
  }
}
