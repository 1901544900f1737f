import Foundation

/// The per-key clock stamps of ``HybridLogicalClockMerge``, and their byte encoding.
///
/// ```
/// "RCFS"                      4 bytes, magic
/// version                     1 byte, 1
/// node count N                LEB128
/// N × node ID                 LEB128 length + UTF-8, strictly ascending
/// entry count M               LEB128
/// M × entry                   key (LEB128 length + UTF-8, strictly ascending),
///                             wall time (zigzag LEB128 milliseconds), counter (LEB128), node index (LEB128)
/// ```
/// Node IDs are stored once and entries point at them, so a hundred keys stamped by two devices cost a few hundred bytes.
/// The encoding is canonical — one map, one byte string — so equal stamps compare equal as bytes too.
struct FieldStamps: Equatable {
  var byKey: [String: HybridTimestamp]

  static let magic: [UInt8] = Array("RCFS".utf8)
  static let version: UInt8 = 1

  init(_ byKey: [String: HybridTimestamp] = [:]) { self.byKey = byKey }

  func encoded() -> Data {
    let nodes = Set(byKey.values.map(\.nodeID)).sorted()
    var index: [String: Int] = [:]
    for (i, node) in nodes.enumerated() { index[node] = i }
    var w = ByteWriter(capacity: 16 + byKey.count * 16)
    w.write(Self.magic)
    w.write(Self.version)
    w.writeVarint(UInt64(nodes.count))
    for node in nodes { w.writeString(node) }
    w.writeVarint(UInt64(byKey.count))
    for (key, stamp) in byKey.sorted(by: { $0.key < $1.key }) {
      w.writeString(key)
      w.writeVarint(UInt64(bitPattern: (stamp.wallTime << 1) ^ (stamp.wallTime >> 63)))
      w.writeVarint(UInt64(stamp.counter))
      w.writeVarint(UInt64(index[stamp.nodeID] ?? 0))
    }
    return Data(w.bytes)
  }

  /// Why bytes are not field stamps; the message ends up in ``ConflictResolutionError/malformedFieldStamps(key:role:reason:)``.
  struct Malformed: Error { let reason: String }

  init(decoding data: Data) throws(Malformed) {
    let result: Result<[String: HybridTimestamp], Malformed> = data.withUnsafeBytes { buffer in
      var r = ByteReader(buffer)
      do throws(Malformed) {
        return .success(try Self.read(&r))
      } catch {
        return .failure(error)
      }
    }
    byKey = try result.get()
  }

  private static func read(_ r: inout ByteReader) throws(Malformed) -> [String: HybridTimestamp] {
    do {
      guard r.remaining >= 5 else { throw Malformed(reason: "\(r.remaining) bytes are too few for the header") }
      for expected in magic where try r.readByte() != expected {
        throw Malformed(reason: "it does not start with RCFS")
      }
      let version = try r.readByte()
      guard version == Self.version else { throw Malformed(reason: "version \(version) is not supported") }
      // Every node takes at least two bytes and every entry at least five, so a count is checked against the bytes
      // left before anything is allocated.
      let nodeCount = try r.readVarint()
      guard nodeCount <= UInt64(r.remaining / 2) else { throw Malformed(reason: "\(nodeCount) nodes cannot fit") }
      var nodes: [String] = []
      nodes.reserveCapacity(Int(nodeCount))
      for _ in 0..<nodeCount {
        let node = try r.readString()
        guard !node.isEmpty, nodes.last.map({ $0 < node }) ?? true else {
          throw Malformed(reason: "node IDs are empty, repeated or out of order")
        }
        nodes.append(node)
      }
      let entryCount = try r.readVarint()
      guard entryCount <= UInt64(r.remaining / 5) else { throw Malformed(reason: "\(entryCount) entries cannot fit") }
      var byKey: [String: HybridTimestamp] = [:]
      byKey.reserveCapacity(Int(entryCount))
      var previous: String?
      for _ in 0..<entryCount {
        let key = try r.readString()
        guard previous.map({ $0 < key }) ?? true else {
          throw Malformed(reason: "key \"\(key)\" is repeated or out of order")
        }
        previous = key
        let zigzag = try r.readVarint()
        let wallTime = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        let counter = try r.readVarint()
        guard counter <= UInt64(UInt32.max) else { throw Malformed(reason: "the counter of \"\(key)\" overflows") }
        let node = try r.readVarint()
        guard node < UInt64(nodes.count) else { throw Malformed(reason: "the node of \"\(key)\" is out of range") }
        byKey[key] = HybridTimestamp(wallTime: wallTime, counter: UInt32(counter), nodeID: nodes[Int(node)])
      }
      guard r.remaining == 0 else { throw Malformed(reason: "\(r.remaining) bytes follow the last entry") }
      return byKey
    } catch let failure as ByteReader.Failure {
      throw Malformed(reason: "\(failure)")
    } catch let malformed as Malformed {
      throw malformed
    } catch {
      throw Malformed(reason: "\(error)")
    }
  }
}
