/// Dense numbers for the elements of a list's three versions, so the list merges compare integers: equal elements get
/// equal numbers, counted from zero in order of first appearance.
enum ListNumbering {
  /// The most elements the three versions may hold together to be numbered by comparing values (the tags and steps a
  /// person edits); longer lists are hashed, which wins past a few dozen elements.
  static let shortLimit = 48

  /// Writes the numbers of `ancestor`'s, `client`'s and `server`'s elements, in that order, into `numbers` (one entry
  /// per element of the three); returns how many distinct elements there are.
  ///
  /// Short lists are numbered by comparing each element of a side with the ancestor's element after the last one it
  /// matched (where an element most often is), then with the first element of each number so far: no hashing and no
  /// allocation.
  static func number(
    _ ancestor: [FieldValue], _ client: [FieldValue], _ server: [FieldValue],
    into numbers: UnsafeMutableBufferPointer<Int32>
  ) -> Int {
    let (a, c) = (ancestor.count, client.count)
    let total = a + c + server.count
    guard total <= shortLimit else {
      var table = TokenTable<FieldValue>()
      for (index, element) in ancestor.enumerated() { numbers[index] = table.number(element) }
      for (index, element) in client.enumerated() { numbers[a + index] = table.number(element) }
      for (index, element) in server.enumerated() { numbers[a + c + index] = table.number(element) }
      return table.count
    }
    return ancestor.withUnsafeBufferPointer { ancestor in
      client.withUnsafeBufferPointer { client in
        server.withUnsafeBufferPointer { server in
          withUnsafeTemporaryAllocation(of: UnsafePointer<FieldValue>.self, capacity: total) { elements in
            // Where each position's element is, so comparing two reads both in place.
            func point(at list: UnsafeBufferPointer<FieldValue>, from offset: Int) {
              guard let base = list.baseAddress else { return }
              for index in list.indices { elements[offset + index] = base + index }
            }
            point(at: ancestor, from: 0)
            point(at: client, from: a)
            point(at: server, from: a + c)
            return number(elements: UnsafeBufferPointer(elements), ancestorCount: a, clientCount: c, into: numbers)
          }
        }
      }
    }
  }

  /// The short path: `elements` points at each position's element.
  private static func number(
    elements: UnsafeBufferPointer<UnsafePointer<FieldValue>>, ancestorCount a: Int, clientCount c: Int,
    into numbers: UnsafeMutableBufferPointer<Int32>
  ) -> Int {
    withUnsafeTemporaryAllocation(of: Int.self, capacity: elements.count) { firsts in
      // firsts[n]: the position of number n's first element.
      var distinct = 0
      // An element of a side is most often where the ancestor's element after the last one it matched is.
      var nextInAncestor = 0
      for position in elements.indices {
        if position == a || position == a + c { nextInAncestor = 0 }
        let element = elements[position]
        if position >= a, nextInAncestor < a, FieldTable.sameValue(elements[nextInAncestor], element) {
          numbers[position] = numbers[nextInAncestor]
          nextInAncestor += 1
          continue
        }
        if let known = (0..<distinct).first(where: { FieldTable.sameValue(elements[firsts[$0]], element) }) {
          numbers[position] = Int32(known)
          if position >= a, firsts[known] < a { nextInAncestor = firsts[known] + 1 }
          continue
        }
        firsts[distinct] = position
        numbers[position] = Int32(distinct)
        distinct += 1
      }
      return distinct
    }
  }
}
