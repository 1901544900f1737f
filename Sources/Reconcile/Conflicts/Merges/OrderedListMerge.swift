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
      distinct.reserveCapacity(ancestor.count + server.count + client.count)
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
    return settle(pieces, numbers: numbers, values: [ancestor, client, server])
  }

  /// The pieces as elements, with removals and extra copies settled. Elements are numbered densely (0 up to the number
  /// of distinct elements), so counts are arrays indexed by number, whatever the lists' length.
  private static func settle(_ pieces: [ThreeWayMerge.Piece], numbers: [[Int32]], values: [[FieldValue]])
    -> [FieldValue]
  {
    let (ancestor, client, server) = (0, 1, 2)
    let distinct = Int(numbers.lazy.compactMap { $0.max() }.max() ?? -1) + 1
    func counts(_ list: [Int32]) -> [Int] {
      var counts = [Int](repeating: 0, count: distinct)
      for number in list { counts[Int(number)] += 1 }
      return counts
    }
    let onServer = counts(numbers[server])
    let onClient = counts(numbers[client])
    // How often each element may be held: never when a side removed it from the ancestor, else as often as the side
    // holding it most often holds it.
    var allowed = zip(onServer, onClient).map { max($0, $1) }
    for number in numbers[ancestor] where onServer[Int(number)] == 0 || onClient[Int(number)] == 0 {
      allowed[Int(number)] = 0
    }
    var merged: [(text: Int, index: Int)] = []
    merged.reserveCapacity(max(numbers[server].count, numbers[client].count) + 4)
    for piece in pieces {
      switch piece {
      case .ancestor(let range): for index in range { merged.append((ancestor, index)) }
      case .server(let range): for index in range { merged.append((server, index)) }
      case .client(let range): for index in range { merged.append((client, index)) }
      case .overlap(_, let clientRange, let serverRange):
        for index in serverRange { merged.append((server, index)) }
        for index in clientRange { merged.append((client, index)) }
      }
    }
    // Extra copies are dropped from the client's first, then from the end.
    var held = [Int](repeating: 0, count: distinct)
    for piece in merged { held[Int(numbers[piece.text][piece.index])] += 1 }
    var keep = [Bool](repeating: true, count: merged.count)
    for clientsOnly in [true, false] {
      for position in merged.indices.reversed()
      where keep[position] && (!clientsOnly || merged[position].text == client) {
        let number = Int(numbers[merged[position].text][merged[position].index])
        guard held[number] > allowed[number] else { continue }
        keep[position] = false
        held[number] -= 1
      }
    }
    var result: [FieldValue] = []
    result.reserveCapacity(merged.count)
    for position in merged.indices where keep[position] {
      result.append(values[merged[position].text][merged[position].index])
    }
    return result
  }
}
