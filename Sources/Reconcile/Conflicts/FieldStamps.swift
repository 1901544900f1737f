import Foundation

/// The per-key clock stamps of ``HybridLogicalClockMerge``, sorted by key, and their byte encoding.
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
/// The encoding is canonical — one map, one byte string. Entries stay sorted in memory too, so two records' stamps merge
/// in one pass without hashing a key.
struct FieldStamps: Equatable {
  struct Entry: Equatable {
    var key: String
    var stamp: HybridTimestamp
  }

  /// Sorted by key, each key once.
  var entries: [Entry]

  static let magic: [UInt8] = Array("RCFS".utf8)
  static let version: UInt8 = 1

  init(sorted entries: [Entry] = []) { self.entries = entries }

  init(_ byKey: [String: HybridTimestamp]) {
    entries = byKey.map { Entry(key: $0.key, stamp: $0.value) }.sorted { $0.key < $1.key }
  }

  var byKey: [String: HybridTimestamp] {
    Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.stamp) })
  }

  /// The stamp of `key`, found by binary search.
  func contains(_ key: String) -> Bool {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].key < key { low = mid + 1 } else { high = mid }
    }
    return low < entries.count && entries[low].key == key
  }

  func encoded() -> Data {
    var nodes: [String] = []
    for entry in entries where !nodes.contains(entry.stamp.nodeID) { nodes.append(entry.stamp.nodeID) }
    nodes.sort()
    var w = ByteWriter(capacity: 16 + entries.count * 16)
    w.write(Self.magic)
    w.write(Self.version)
    w.writeVarint(UInt64(nodes.count))
    for node in nodes { w.writeString(node) }
    w.writeVarint(UInt64(entries.count))
    for entry in entries {
      let stamp = entry.stamp
      w.writeString(entry.key)
      w.writeVarint(UInt64(bitPattern: (stamp.wallTime << 1) ^ (stamp.wallTime >> 63)))
      w.writeVarint(UInt64(stamp.counter))
      w.writeVarint(UInt64(nodes.firstIndex(of: stamp.nodeID) ?? 0))
    }
    return Data(w.bytes)
  }

  /// Why bytes are not field stamps; the message ends up in ``ConflictResolutionError/malformedFieldStamps(key:role:reason:)``.
  struct Malformed: Error { let reason: String }

  init(decoding data: Data) throws(Malformed) {
    let result: Result<[Entry], Malformed> = data.withUnsafeBytes { buffer in
      var r = ByteReader(buffer)
      do throws(Malformed) {
        return .success(try Self.read(&r))
      } catch {
        return .failure(error)
      }
    }
    entries = try result.get()
  }

  private static func read(_ r: inout ByteReader) throws(Malformed) -> [Entry] {
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
      var entries: [Entry] = []
      entries.reserveCapacity(Int(entryCount))
      for _ in 0..<entryCount {
        let key = try r.readString()
        guard entries.last.map({ $0.key < key }) ?? true else {
          throw Malformed(reason: "key \"\(key)\" is repeated or out of order")
        }
        let zigzag = try r.readVarint()
        let wallTime = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        let counter = try r.readVarint()
        guard counter <= UInt64(UInt32.max) else { throw Malformed(reason: "the counter of \"\(key)\" overflows") }
        let node = try r.readVarint()
        guard node < UInt64(nodes.count) else { throw Malformed(reason: "the node of \"\(key)\" is out of range") }
        entries.append(
          Entry(
            key: key, stamp: HybridTimestamp(wallTime: wallTime, counter: UInt32(counter), nodeID: nodes[Int(node)])))
      }
      guard r.remaining == 0 else { throw Malformed(reason: "\(r.remaining) bytes follow the last entry") }
      return entries
    } catch let failure as ByteReader.Failure {
      throw Malformed(reason: "\(failure)")
    } catch let malformed as Malformed {
      throw malformed
    } catch {
      throw Malformed(reason: "\(error)")
    }
  }
}
