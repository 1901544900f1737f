public import Foundation

/// A change token from CloudKit, kept opaque: the bytes of a `CKServerChangeToken`, or a Web Services `syncToken`.
///
/// Apps persist tokens by archiving `CKServerChangeToken` with `NSKeyedArchiver`; ``init(cloudKitArchive:)`` reads
/// such an archive anywhere Swift runs, so state saved on iOS can be inspected on Linux.
///
/// ```swift
/// let token = try ServerChangeToken(cloudKitArchive: Data(contentsOf: savedTokenURL))
/// print(token)        // 9 bytes: 0100000186112069 3e
/// ```
public struct ServerChangeToken: Sendable, Hashable, CustomStringConvertible {
  /// The token's bytes (`ChangeTokenData` in Apple's archive). Their layout is CloudKit's and is not interpreted.
  public var data: Data

  /// Wraps token bytes.
  /// - Parameter data: The bytes.
  public init(data: Data) { self.data = data }

  /// The byte count and the bytes in hexadecimal, for logs.
  public var description: String {
    "\(data.count) bytes: " + data.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

extension ServerChangeToken {
  /// Reads an `NSKeyedArchiver` archive of a `CKServerChangeToken`, binary or XML; the token's bytes may be stored as
  /// plain data or as an archived `NSData`/`NSMutableData`.
  /// - Parameter data: The archive's bytes.
  /// - Throws: ``CloudKitArchiveError`` naming what is wrong, such as an archive of another class.
  public init(cloudKitArchive data: Data) throws(CloudKitArchiveError) {
    let archive = try CloudKitArchive(data: data)
    guard case .serverChangeToken(let token) = archive else {
      throw .unexpectedClass(
        field: CloudKitArchiveKeys.root, expected: CloudKitArchiveKeys.changeTokenClass, found: archive.kind)
    }
    self = token
  }

  /// Writes the token as `NSKeyedArchiver` writes a `CKServerChangeToken`, readable by `NSKeyedUnarchiver` on Apple
  /// platforms and by ``init(cloudKitArchive:)``.
  /// - Returns: A binary property list.
  public func cloudKitArchive() -> Data {
    CloudKitArchive.rootArchive { archiveObject(into: &$0) }
  }

  func archiveObject(into b: inout KeyedArchiveBuilder) -> PropertyList {
    b.object(
      className: CloudKitArchiveKeys.changeTokenClass, fields: [CloudKitArchiveKeys.tokenData: .data(data)])
  }
}
