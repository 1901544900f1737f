/// The three-way ordered-list merge behind ``FieldMerge/Policy/orderedList``: `diff3` over the lists' elements, then
/// removals and moves made whole.
package enum OrderedListMerge {
  /// Both sides' insertions and removals, in place, and each side's moves where the other did not move the same
  /// element:
  /// - the lists merge as `diff3` merges lines (``ThreeWayMerge``); where both sides changed the same stretch
  ///   differently, the server's version comes first, then the client's;
  /// - an element of the ancestor that either side no longer holds is removed, wherever the other side put it;
  /// - an element is held at most as many times as the side holding it most often does: a copy left over from a move
  ///   (removed in one place, inserted in another) is dropped, the client's copy before the server's, so when both
  ///   sides moved one element the server's place wins.
  /// - Complexity: two ``SequenceDiff`` runs over the numbered elements (``ListNumbering``), then linear passes; short
  ///   lists are merged in buffers on the stack, allocating only the result.
  package static func merge(ancestor: [FieldValue], server: [FieldValue], client: [FieldValue]) -> [FieldValue] {
    let (a, c, s) = (ancestor.count, client.count, server.count)
    // Positions run through the three lists in turn: the ancestor's, the client's, then the server's elements.
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: a + c + s) { numbers in
      let distinct = ListNumbering.number(ancestor, client, server, into: numbers)
      // Every position the merge holds is one of the client's or the server's (an ancestor piece stands for as many
      // of each side's), so c + s places suffice.
      return withUnsafeTemporaryAllocation(of: Int.self, capacity: c + s) { merged in
        // No local function appends here: one captured by the closure below would make `count` a boxed variable
        // with run-time exclusivity checks.
        var count = 0
        ThreeWayMerge.forEachPiece(
          ancestor: UnsafeBufferPointer(rebasing: numbers[0..<a]),
          client: UnsafeBufferPointer(rebasing: numbers[a..<(a + c)]),
          server: UnsafeBufferPointer(rebasing: numbers[(a + c)...])
        ) { piece in
          switch piece {
          case .ancestor(let range): append(range, from: 0, to: merged, at: &count)
          case .client(let range): append(range, from: a, to: merged, at: &count)
          case .server(let range), .same(let range): append(range, from: a + c, to: merged, at: &count)
          case .overlap(_, let clientRange, let serverRange):
            append(serverRange, from: a + c, to: merged, at: &count)
            append(clientRange, from: a, to: merged, at: &count)
          }
        }
        return settle(
          UnsafeMutableBufferPointer(rebasing: merged[0..<count]), numbers: UnsafeBufferPointer(numbers),
          distinct: distinct, counts: (a, c)
        ) { position in
          position < a ? ancestor[position] : position < a + c ? client[position - a] : server[position - a - c]
        }
      }
    }
  }

  /// Writes the positions `range` of the list starting at `offset` to `merged` from `count` on.
  @inline(__always)
  private static func append(
    _ range: Range<Int>, from offset: Int, to merged: UnsafeMutableBufferPointer<Int>, at count: inout Int
  ) {
    for index in range {
      merged[count] = offset + index
      count += 1
    }
  }

  /// The merged positions as elements, with removals and extra copies settled. Elements are numbered densely (0 up to
  /// `distinct`), so counts are buffers indexed by number, whatever the lists' length.
  private static func settle(
    _ merged: UnsafeMutableBufferPointer<Int>, numbers: UnsafeBufferPointer<Int32>, distinct: Int,
    counts: (ancestor: Int, client: Int), element: (Int) -> FieldValue
  ) -> [FieldValue] {
    let clientStart = counts.ancestor
    let serverStart = counts.ancestor + counts.client
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * distinct) { table in
      _ = table.initialize(from: repeatElement(0, count: 4 * distinct))
      // Per number: how often the server holds it, the client, how often it may be held, and is held.
      func onServer(_ number: Int32) -> Int { table[Int(number)] }
      func onClient(_ number: Int32) -> Int { table[distinct + Int(number)] }
      let allowed = 2 * distinct
      let held = 3 * distinct
      for number in numbers[serverStart...] { table[Int(number)] += 1 }
      for number in numbers[clientStart..<serverStart] { table[distinct + Int(number)] += 1 }
      // Never when a side removed it from the ancestor, else as often as the side holding it most often holds it.
      for number in 0..<Int32(distinct) { table[allowed + Int(number)] = max(onServer(number), onClient(number)) }
      for number in numbers[0..<clientStart] where onServer(number) == 0 || onClient(number) == 0 {
        table[allowed + Int(number)] = 0
      }
      for position in merged { table[held + Int(numbers[position])] += 1 }
      // Extra copies are dropped from the client's first, then from the end; a dropped place is marked -1.
      func dropExtraCopies(clientsOnly: Bool) {
        for place in merged.indices.reversed() where merged[place] >= 0 {
          let position = merged[place]
          guard !clientsOnly || (position >= clientStart && position < serverStart) else { continue }
          let number = Int(numbers[position])
          guard table[held + number] > table[allowed + number] else { continue }
          merged[place] = -1
          table[held + number] -= 1
        }
      }
      dropExtraCopies(clientsOnly: true)
      dropExtraCopies(clientsOnly: false)
      var result: [FieldValue] = []
      result.reserveCapacity(merged.count)
      for position in merged where position >= 0 { result.append(element(position)) }
      return result
    }
  }
}
