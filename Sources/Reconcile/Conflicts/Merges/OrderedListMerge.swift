/// The three-way ordered-list merge behind ``FieldMerge/Policy/orderedList``: `diff3` over the lists' elements, then
/// removals and moves made whole.
enum OrderedListMerge {
  /// Both sides' insertions and removals, in place, and each side's moves where the other did not move the same
  /// element:
  /// - the lists merge as `diff3` merges lines (``ThreeWayMerge``); where both sides changed the same stretch
  ///   differently, the server's version comes first, then the client's;
  /// - an element of the ancestor that either side no longer holds is removed, wherever the other side put it;
  /// - an element is held at most as many times as the side holding it most often does: a copy left over from a move
  ///   (removed in one place, inserted in another) is dropped, the client's copy before the server's, so when both
  ///   sides moved one element the server's place wins.
  /// - Complexity: two ``SequenceDiff`` runs over the interned elements, then linear passes.
  static func merge(ancestor: [FieldValue], server: [FieldValue], client: [FieldValue]) -> [FieldValue] {
    let small = ancestor.count + server.count + client.count <= 48
    let numbers: [[Int32]]
    if small {
      // Short lists are numbered by scanning the distinct elements so far, which beats hashing them.
      var distinct: [FieldValue] = []
      numbers = [ancestor, client, server].map { list in
        list.map { element in
          if let found = distinct.firstIndex(of: element) { return Int32(found) }
          distinct.append(element)
          return Int32(distinct.count - 1)
        }
      }
    } else {
      var table = TokenTable<FieldValue>()
      numbers = [table.number(ancestor), table.number(client), table.number(server)]
    }
    let pieces = ThreeWayMerge.merge(ancestor: numbers[0], client: numbers[1], server: numbers[2])
    return small
      ? settle(pieces, ancestor: numbers[0], server: numbers[2], client: numbers[1], values: (ancestor, server, client))
      : settleByCounting(pieces, ancestor: ancestor, server: server, client: client)
  }

  /// Removals and extra copies settled over the elements' numbers (short lists): the same rules as
  /// ``settleByCounting(_:ancestor:server:client:)``, counting by scanning.
  private static func settle(
    _ pieces: [ThreeWayMerge.Piece], ancestor: [Int32], server: [Int32], client: [Int32],
    values: (ancestor: [FieldValue], server: [FieldValue], client: [FieldValue])
  ) -> [FieldValue] {
    var merged: [(number: Int32, value: FieldValue, fromClient: Bool)] = []
    merged.reserveCapacity(max(server.count, client.count) + 4)
    for piece in pieces {
      switch piece {
      case .ancestor(let range): for i in range { merged.append((ancestor[i], values.ancestor[i], false)) }
      case .server(let range): for i in range { merged.append((server[i], values.server[i], false)) }
      case .client(let range): for i in range { merged.append((client[i], values.client[i], true)) }
      case .overlap(_, let clientRange, let serverRange):
        for i in serverRange { merged.append((server[i], values.server[i], false)) }
        for i in clientRange { merged.append((client[i], values.client[i], true)) }
      }
    }
    func count(_ number: Int32, in list: [Int32]) -> Int { list.reduce(0) { $0 + ($1 == number ? 1 : 0) } }
    func allowed(_ number: Int32) -> Int {
      let onServer = count(number, in: server)
      let onClient = count(number, in: client)
      if ancestor.contains(number), onServer == 0 || onClient == 0 { return 0 }
      return max(onServer, onClient)
    }
    var keep = [Bool](repeating: true, count: merged.count)
    let numbers = merged.map(\.number)
    var held = numbers.map { count($0, in: numbers) }
    for pass in [true, false] {
      for index in merged.indices.reversed() where keep[index] && (!pass || merged[index].fromClient) {
        guard held[index] > allowed(merged[index].number) else { continue }
        keep[index] = false
        for other in merged.indices where merged[other].number == merged[index].number { held[other] -= 1 }
      }
    }
    return merged.indices.filter { keep[$0] }.map { merged[$0].value }
  }

  /// Removals and extra copies settled by counting elements in dictionaries (long lists).
  private static func settleByCounting(
    _ pieces: [ThreeWayMerge.Piece], ancestor: [FieldValue], server: [FieldValue], client: [FieldValue]
  ) -> [FieldValue] {
    var merged: [(value: FieldValue, fromClient: Bool)] = []
    merged.reserveCapacity(max(server.count, client.count) + 4)
    for piece in pieces {
      switch piece {
      case .ancestor(let range): merged += ancestor[range].map { ($0, false) }
      case .server(let range): merged += server[range].map { ($0, false) }
      case .client(let range): merged += client[range].map { ($0, true) }
      case .overlap(_, let clientRange, let serverRange):
        merged += server[serverRange].map { ($0, false) }
        merged += client[clientRange].map { ($0, true) }
      }
    }
    let serverCounts = counts(server)
    let clientCounts = counts(client)
    var allowed: [FieldValue: Int] = [:]
    for element in Set(ancestor) where serverCounts[element] == nil || clientCounts[element] == nil {
      allowed[element] = 0
    }
    for (element, count) in serverCounts where allowed[element] == nil {
      allowed[element] = max(count, clientCounts[element] ?? 0)
    }
    for (element, count) in clientCounts where allowed[element] == nil { allowed[element] = count }
    // Extra copies are dropped from the client's first, then from the end.
    var held = counts(merged.map(\.value))
    var keep = [Bool](repeating: true, count: merged.count)
    for pass in [true, false] {
      for index in merged.indices.reversed() where keep[index] && (!pass || merged[index].fromClient) {
        let element = merged[index].value
        guard let count = held[element], count > allowed[element, default: 0] else { continue }
        keep[index] = false
        held[element] = count - 1
      }
    }
    return merged.indices.filter { keep[$0] }.map { merged[$0].value }
  }

  private static func counts(_ list: [FieldValue]) -> [FieldValue: Int] {
    var counts: [FieldValue: Int] = [:]
    for element in list { counts[element, default: 0] += 1 }
    return counts
  }
}
