import Foundation

/// Shrinks a failing run: drops devices, then chunks of steps (halving the chunk size down to single steps), then
/// turns steps that only let time pass into waits, then shrinks step parameters (waits, delays, clock jumps,
/// retry-afters halved; keys dropped from creates and edits), merges neighbouring waits, then clock skew — for as long
/// as the run still breaks the same invariant.
enum Shrinker {
  static func shrink(_ failing: SimulationResult, maximumRuns: Int) -> Counterexample? {
    guard let target = failing.violations.first?.invariant else { return nil }
    var runs = 0
    func breaks(_ setup: SimulationSetup, _ steps: [SimulationStep]) -> SimulationResult? {
      runs += 1
      var simulation = Simulation(setup: setup, steps: steps, invariants: [target])
      let result = simulation.run()
      return result.passed ? nil : result
    }
    var setup = failing.setup
    var steps = failing.steps
    var best = failing
    var changed = true
    while changed, runs < maximumRuns {
      changed = false
      for device in setup.devices.reversed() where setup.devices.count > 1 && runs < maximumRuns {
        var smaller = setup
        smaller.devices.removeAll { $0.name == device.name }
        let kept = steps.filter { $0.device != device.name }
        if let result = breaks(smaller, kept) {
          (setup, steps, best, changed) = (smaller, kept, result, true)
        }
      }
      var chunk = max(1, steps.count / 2)
      while chunk >= 1, runs < maximumRuns {
        var start = 0
        while start < steps.count, runs < maximumRuns {
          var candidate = steps
          candidate.removeSubrange(start..<min(steps.count, start + chunk))
          if let result = breaks(setup, candidate) {
            (steps, best, changed) = (candidate, result, true)
          } else {
            start += chunk
          }
        }
        if chunk == 1 { break }
        chunk /= 2
      }
      // A step whose effect is only the second it takes becomes a wait; neighbouring waits merge into one.
      var index = 0
      while index < steps.count, runs < maximumRuns {
        if case .advance = steps[index] {
          index += 1
          continue
        }
        var candidate = steps
        candidate[index] = .advance(seconds: Simulation.stepInterval)
        if let result = breaks(setup, candidate) { (steps, best, changed) = (candidate, result, true) }
        index += 1
      }
      // Smaller parameters: halve waits, delays, clock jumps and retry-afters; drop keys from creates and edits.
      index = 0
      while index < steps.count, runs < maximumRuns {
        for candidate in Self.smaller(steps[index]) where runs < maximumRuns {
          var trial = steps
          trial[index] = candidate
          if let result = breaks(setup, trial) {
            (steps, best, changed) = (trial, result, true)
            break
          }
        }
        index += 1
      }
      let merged = Self.mergingWaits(steps)
      if merged.count < steps.count, runs < maximumRuns, let result = breaks(setup, merged) {
        (steps, best, changed) = (merged, result, true)
      }
      for index in setup.devices.indices where setup.devices[index].clockOffset != 0 && runs < maximumRuns {
        var calmer = setup
        calmer.devices[index].clockOffset = 0
        if let result = breaks(calmer, steps) { (setup, best, changed) = (calmer, result, true) }
      }
    }
    guard let violation = best.violations.first(where: { $0.invariant == target }) ?? best.violations.first else {
      return nil
    }
    var result = best
    result.seed = failing.seed
    // Shrinking follows the one invariant that broke; the script judges every invariant the failing run judged, so a
    // user who edits it checks what the run checked, not less.
    result.invariants = failing.invariants
    return Counterexample(
      seed: failing.seed, violation: violation, originalStepCount: failing.steps.count, result: result, shrinkRuns: runs
    )
  }

  /// Simpler versions of one step, most promising first: a number halved (and zeroed), or one key fewer.
  static func smaller(_ step: SimulationStep) -> [SimulationStep] {
    func halves(_ value: Int) -> [Int] { value == 0 ? [] : [0, value / 2].filter { abs($0) < abs(value) } }
    // Times halve in whole seconds, as the runner draws them; a fraction of a second (typed in a session) stays.
    func halves(_ value: TimeInterval) -> [TimeInterval] {
      Int(exactly: value).map { halves($0).map(Double.init) } ?? []
    }
    switch step {
    case .advance(let seconds): return halves(seconds).map { .advance(seconds: $0) }
    case .clockJump(let device, let seconds):
      return halves(seconds).filter { $0 != 0 }.map { .clockJump(device: device, seconds: $0) }
    case .fault(.delay(let device, let seconds)):
      return halves(seconds).map { .fault(.delay(device: device, seconds: $0)) }
    case .fault(.transient(let device, let error, let retryAfter)):
      return halves(retryAfter).map { .fault(.transient(device: device, error: error, retryAfter: $0)) }
    case .fault(.throttle(let seconds)): return halves(seconds).map { .fault(.throttle(seconds: $0)) }
    case .create(let device, let record) where record.values.count > 1:
      return record.values.keys.sorted().map { key in
        var smaller = record
        smaller[key] = nil
        return .create(device: device, record: smaller)
      }
    case .edit(let device, let type, let record, let values, let encrypted) where values.count > 1:
      return values.keys.sorted().map { key in
        .edit(device: device, type: type, record: record, values: values.filter { $0.key != key }, encrypted: encrypted)
      }
    default: return []
    }
  }

  /// Neighbouring waits as one wait of their total length.
  static func mergingWaits(_ steps: [SimulationStep]) -> [SimulationStep] {
    var merged: [SimulationStep] = []
    for step in steps {
      if case .advance(let seconds) = step, case .advance(let previous)? = merged.last {
        merged[merged.count - 1] = .advance(seconds: previous + seconds)
      } else {
        merged.append(step)
      }
    }
    return merged
  }
}
