public import Foundation

/// The metadata of a file stored with a record. The file itself is not part of the record's data.
///
/// Every property is optional because the server fills them in at different times: an upload receipt before saving,
/// checksums and a download URL after.
public struct Asset: Sendable, Hashable, CustomStringConvertible {
  /// The file's checksum, as the server reports it.
  public var fileChecksum: String?
  /// The file's size in bytes.
  public var size: Int64?
  /// The checksum of the reference to the file.
  public var referenceChecksum: String?
  /// The key that wraps the file's encryption key.
  public var wrappingKey: String?
  /// The receipt the server gave for an uploaded file.
  public var receipt: String?
  /// Where the file can be downloaded from.
  public var downloadURL: String?
  /// The local file that holds the asset's bytes, as `CKAsset(fileURL:)` takes it and a fetched `CKAsset` gives it.
  /// Local only: the Web Services JSON has no such field, so it is neither written nor read there.
  public var fileURL: URL?

  /// Creates asset metadata; every part is optional.
  /// - Parameters:
  ///   - fileChecksum: The file's checksum.
  ///   - size: The file's size in bytes.
  ///   - referenceChecksum: The checksum of the reference to the file.
  ///   - wrappingKey: The key that wraps the file's encryption key.
  ///   - receipt: The upload receipt.
  ///   - downloadURL: Where to download the file.
  ///   - fileURL: The local file holding the bytes, if any.
  public init(
    fileChecksum: String? = nil, size: Int64? = nil, referenceChecksum: String? = nil, wrappingKey: String? = nil,
    receipt: String? = nil, downloadURL: String? = nil, fileURL: URL? = nil
  ) {
    self.fileChecksum = fileChecksum
    self.size = size
    self.referenceChecksum = referenceChecksum
    self.wrappingKey = wrappingKey
    self.receipt = receipt
    self.downloadURL = downloadURL
    self.fileURL = fileURL
  }

  /// `asset(checksum, size)`, for logs.
  public var description: String {
    "asset(\(fileChecksum ?? "no checksum"), \(size.map { "\($0) bytes" } ?? "unknown size"))"
  }
}
