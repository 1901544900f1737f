/// Which truncations and single-bit flips of a document a mutation sweep tries.
///
/// The deep sweep (`RECONCILE_SWEEP=quick` or `full`, release build) tries every one. `swift test` tries every one in
/// the first 64 bytes, where headers and offset tables make parsers branch most, and beyond them every `stride`-th
/// length and bit: a stride coprime with 8 flips every bit position of a byte somewhere.
public struct MutationPlan: Sendable {
  /// The prefix lengths to decode.
  public let lengths: [Int]
  /// The bits to flip, counted from the first bit of the first byte.
  public let bits: [Int]

  /// The plan for a document of `byteCount` bytes at the current ``SweepDepth``.
  /// - Parameters:
  ///   - byteCount: The document's size.
  ///   - stride: How far apart the tries beyond the first 64 bytes are in `swift test`; odd, so coprime with 8.
  public init(byteCount: Int, stride step: Int = 7) {
    let head = min(byteCount, 64)
    let every = SweepDepth.current == .unit ? step : 1
    lengths = Array(0..<head) + Array(Swift.stride(from: head, to: byteCount, by: every))
    bits = Array(0..<(head * 8)) + Array(Swift.stride(from: head * 8, to: byteCount * 8, by: every))
  }

}
