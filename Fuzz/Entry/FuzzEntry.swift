// The libFuzzer entry point. Scripts/fuzz.sh compiles this file with the library sources under
// `-sanitize=fuzzer,address` and names the target in RECONCILE_FUZZ_TARGET; SwiftPM never builds it.
import Foundation
import ReconcileFuzzing

/// The target named in the environment, read once. An unknown name ends the run before any input is tried.
private let target: FuzzTarget = {
  let name = ProcessInfo.processInfo.environment["RECONCILE_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTarget(rawValue: name) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("RECONCILE_FUZZ_TARGET must be one of: \(names) (was '\(name)')\n".utf8))
    exit(2)
  }
  return target
}()

/// libFuzzer calls this once per input: it runs the target's checks and aborts on a finding so the input is saved.
/// - Parameters:
///   - bytes: The input.
///   - count: Its length.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  do {
    try target.check(Data(bytes: bytes, count: count))
  } catch {
    // A broken property is reported like a trap, so libFuzzer saves the input as a crash.
    FileHandle.standardError.write(Data("\(target): \(error)\n".utf8))
    abort()
  }
  return 0
}
