/// Turns a hash computed once and stored in an ID into the value a `Set` or `Dictionary` asks for, without running the
/// standard library's SipHash on every lookup.
///
/// The stored hash already comes from `Hasher`, so it is seeded per process and well spread; each table's own seed is
/// mixed in with a bijective 64-bit finalizer (MurmurHash3's), so two tables with different seeds order the same keys
/// unrelatedly, as the standard library's hashing does, and copying one table into another does not cluster.
enum StoredHash {
  /// The table hash of an ID whose names hash to `stored`, for a table seeded with `seed`.
  static func tableHash(_ stored: Int, seed: Int) -> Int {
    var bits = UInt64(truncatingIfNeeded: stored ^ seed)
    bits ^= bits >> 33
    bits &*= 0xff51_afd7_ed55_8ccd
    bits ^= bits >> 33
    bits &*= 0xc4ce_b9fe_1a85_ec53
    bits ^= bits >> 33
    return Int(truncatingIfNeeded: bits)
  }
}
