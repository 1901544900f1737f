extension FieldMerge {
  /// Who wins ``Policy/set(_:)`` when one side has an element the other does not and nothing tells whether it was
  /// added or removed — a record with no ancestor.
  public enum SetRule: String, Sendable, Hashable, CaseIterable {
    /// Keep it: the union.
    case addWins
    /// Drop it: the intersection.
    case removeWins
  }
}

/// The three-way set merge behind ``FieldMerge/Policy/set(_:)``, over lists read as sets.
package enum SetMerge {
  /// Every element both sides have, every element a side added since the ancestor, and none a side removed: an element
  /// of the ancestor missing from either side is gone, one missing from the ancestor and present on a side was added.
  /// Without an ancestor, `rule` decides an element only one side has. The result lists the server's elements in its
  /// order, then the client's additions in its order, each once.
  /// - Complexity: O(*a* + *s* + *c*) for the three lists' lengths: each element is numbered once (``ListNumbering``:
  ///   by comparing values below a few dozen elements, by hashing above), and the versions are held as flags per
  ///   number — bit sets for short lists, byte tables for long ones.
  package static func merge(
    ancestor: [FieldValue]?, server: [FieldValue], client: [FieldValue], rule: FieldMerge.SetRule
  ) -> [FieldValue] {
    let base = ancestor ?? []
    let total = base.count + client.count + server.count
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: total) { numbers in
      let distinct = ListNumbering.number(base, client, server, into: numbers)
      guard total <= ListNumbering.shortLimit else {
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: distinct) { flags in
          merge(
            numbers: UnsafeBufferPointer(numbers), flags: flags, hasAncestor: ancestor != nil, rule: rule,
            counts: (base.count, client.count), server: server, client: client)
        }
      }
      // At most 48 distinct elements: each version is a 64-bit set of numbers.
      func bits(_ range: Range<Int>) -> UInt64 { numbers[range].reduce(0) { $0 | 1 << UInt64($1) } }
      let (a, c) = (base.count, client.count)
      let inAncestor = bits(0..<a)
      let inClient = bits(a..<(a + c))
      let inServer = bits((a + c)..<total)
      func added(_ bit: UInt64) -> Bool { ancestor == nil ? rule == .addWins : inAncestor & bit == 0 }
      var result: [FieldValue] = []
      result.reserveCapacity(server.count + client.count)
      var taken: UInt64 = 0
      for (index, element) in server.enumerated() {
        let bit: UInt64 = 1 << UInt64(numbers[a + c + index])
        guard taken & bit == 0, inClient & bit != 0 || added(bit) else { continue }
        taken |= bit
        result.append(element)
      }
      for (index, element) in client.enumerated() {
        let bit: UInt64 = 1 << UInt64(numbers[a + index])
        guard taken & bit == 0, inServer & bit == 0, added(bit) else { continue }
        taken |= bit
        result.append(element)
      }
      return result
    }
  }

  /// The rule for long lists, over one byte of flags per distinct number: which versions hold it, and whether the
  /// result has taken it.
  private static func merge(
    numbers: UnsafeBufferPointer<Int32>, flags: UnsafeMutableBufferPointer<UInt8>, hasAncestor: Bool,
    rule: FieldMerge.SetRule, counts: (ancestor: Int, client: Int), server: [FieldValue], client: [FieldValue]
  ) -> [FieldValue] {
    let (inAncestor, inClient, inServer, taken): (UInt8, UInt8, UInt8, UInt8) = (1, 2, 4, 8)
    _ = flags.initialize(from: repeatElement(0, count: flags.count))
    let (a, c) = counts
    for number in numbers[0..<a] { flags[Int(number)] |= inAncestor }
    for number in numbers[a..<(a + c)] { flags[Int(number)] |= inClient }
    for number in numbers[(a + c)...] { flags[Int(number)] |= inServer }
    func added(_ flag: UInt8) -> Bool { hasAncestor ? flag & inAncestor == 0 : rule == .addWins }
    var result: [FieldValue] = []
    result.reserveCapacity(server.count + client.count)
    for (index, element) in server.enumerated() {
      let number = Int(numbers[a + c + index])
      let flag = flags[number]
      guard flag & taken == 0, flag & inClient != 0 || added(flag) else { continue }
      flags[number] |= taken
      result.append(element)
    }
    for (index, element) in client.enumerated() {
      let number = Int(numbers[a + index])
      let flag = flags[number]
      guard flag & taken == 0, flag & inServer == 0, added(flag) else { continue }
      flags[number] |= taken
      result.append(element)
    }
    return result
  }
}
