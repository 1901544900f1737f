import Foundation
import Reconcile
import ReconcileSimulator
import ReconcileTestSupport

// reconcile-benchmarks: run with `swift run -c release reconcile-benchmarks [--check] [--quick] [--only SECTION]`.
// --check exits 1 when a target is missed; --quick runs fewer iterations (for smoke runs); --only runs one section
// (archives, merge, text-merge, simulator, workload, feed, hostile, bodies, pending), e.g. under a profiler. The sections simulator-steps
// (20 seeds of field-merge with flaky faults), merge-resolutions and merge-floor (20,000 ten-field FieldMerge
// resolutions, or floor copies) and idle (nothing) are what the merge and simulator sections count instructions of
// under callgrind, as hard-text-merge-work (HARD_TEXT_INPUT at HARD_TEXT_SCALE by HARD_TEXT_GRANULARITY) is for the
// text merge's growth on repetitive lines and prose, and list-merge-work (LIST_POLICY's merge of LIST_ELEMENTS, LIST_REPEATS times) is for the list
// policies' growth; each prints `units: N`. simulator-steps-N-devices and simulator-steps-long (2 seeds of 2,000 steps)
// are the same workload grown, for the simulator's growth rows; simulator-steps-zone is 5 seeds of it in a zone first
// populated with ZONE_RECORDS untouched records, ZONE_STEPS steps each (0: populated and judged only);
// simulator-steps-budgeted is 5 seeds of the configuration BUDGETED names, for the per-configuration budget lines.
let argumentList = Array(CommandLine.arguments.dropFirst())
let arguments = Set(argumentList)
let iterations = arguments.contains("--quick") ? 2_000 : 200_000
let sections = [
  "archives", "merge", "text-merge", "simulator", "workload", "feed", "hostile", "bodies", "pending", "simulator-steps",
  "merge-resolutions", "merge-floor", "text-merge-work", "hard-text-merge-work", "list-policies-work",
  "list-merge-work", "bodies-work", "simulator-steps-2-devices", "simulator-steps-4-devices",
  "simulator-steps-8-devices", "simulator-steps-long", "simulator-steps-zone", "simulator-steps-budgeted", "idle",
]
let usage = """
  usage: reconcile-benchmarks [--check] [--quick] [--only SECTION]

  Runs every benchmark section, each target beside its baseline or floor in the same run (build with -c release).
    --check         exit 1 when a target is missed
    --quick         fewer iterations, for a smoke run; targets are not judged on such small samples
    --only SECTION  one section: \(sections.joined(separator: ", "))
    -h, --help      this text
  """
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
  exit(0)
}
var expectsSection = false
for argument in argumentList {
  defer { expectsSection = argument == "--only" }
  if expectsSection || ["--check", "--quick", "--only"].contains(argument) { continue }
  FileHandle.standardError.write(Data("reconcile-benchmarks: unknown argument '\(argument)'\n\(usage)\n".utf8))
  exit(2)
}
let only = argumentList.firstIndex(of: "--only").flatMap {
  argumentList.indices.contains($0 + 1) ? argumentList[$0 + 1] : nil
}
if let only, !sections.contains(only) {
  print("unknown section \(only); sections: \(sections.joined(separator: ", "))")
  exit(2)
}
func runs(_ section: String) -> Bool { only == nil || only == section }
/// Whether `section` is one of the workloads callgrind counts, run only when asked for by name.
func counts(_ section: String) -> Bool { only == section }

var failures: [String] = []
/// Prints a target's line with PASS or FAIL, and remembers a miss for `--check`.
/// Prints a target's verdict and notes a miss for `--check`. A target measured on too small a sample to judge (`--quick`
/// runs 20 workload seeds where the full run takes 500) prints its figure without a verdict.
@MainActor func target(_ text: String, _ passed: Bool, missing name: String, sample: String? = nil) {
  if let sample {
    print("target: \(text) (not judged: \(sample))")
    return
  }
  print("target: \(text) \(passed ? "PASS" : "FAIL")")
  if !passed { failures.append(name) }
}

#if DEBUG
  print("warning: this is a debug build; figures are meaningful only with -c release\n")
#endif

do {
  if runs("archives") {
    let results = try SystemFieldsBenchmark.run(iterations: iterations)
    let base = results[0]
    print("System-fields round trip (encode + decode), a record shaped like the QSCompany fixture")
    var rows = [["format", "ns/round trip", "bytes", "time vs Reconcile", "size vs Reconcile"]]
    for r in results {
      rows.append([
        r.name, format(r.nsPerRoundTrip, digits: 0), String(r.bytes),
        format(r.nsPerRoundTrip / base.nsPerRoundTrip) + "×",
        format(Double(r.bytes) / Double(base.bytes)) + "×",
      ])
    }
    print(table(rows))
    let keyed = results[1]
    let speedup = keyed.nsPerRoundTrip / base.nsPerRoundTrip
    let sizeRatio = Double(base.bytes) / Double(keyed.bytes)
    target(
      "Reconcile ≥ 20× faster than the keyed archive: \(format(speedup))×", speedup >= 20,
      missing: "system-fields speed")
    target(
      "Reconcile ≤ 1/4 the keyed archive's size: \(format(sizeRatio, digits: 3))", sizeRatio <= 0.25,
      missing: "system-fields size")
  }

  if runs("merge") {
    print("\nConflict resolution: a fifth of the fields changed on each side, one field on both")
    let merges = try MergeBenchmark.run(iterations: iterations)
    var mergeRows = [["resolver", "fields", "ns/resolution", "resolutions/s", "vs naive"]]
    for r in merges {
      let naive =
        merges.first { $0.name.hasPrefix("naive") && $0.fields == r.fields }?.nsPerResolution ?? r.nsPerResolution
      mergeRows.append([
        r.name, String(r.fields), format(r.nsPerResolution, digits: 0), format(1e9 / r.nsPerResolution, digits: 0),
        format(r.nsPerResolution / naive, digits: 2) + "×",
      ])
    }
    print(table(mergeRows))
    func fieldMerge(_ fields: Int) -> Double {
      merges.first { $0.name == "FieldMerge" && $0.fields == fields }?.nsPerResolution ?? .infinity
    }
    let perSecond = 1e9 / fieldMerge(10)
    let growth = fieldMerge(100) / fieldMerge(10)
    let floor = merges.first { $0.name.hasPrefix("floor") && $0.fields == 10 }?.nsPerResolution ?? 0
    print("floor: copying a 10-field record and writing one key costs \(format(floor, digits: 0)) ns on this machine")
    target(
      "≥ 1,000,000 ten-field FieldMerge resolutions/s: \(format(perSecond, digits: 0))", perSecond >= 1_000_000,
      missing: "FieldMerge rate")
    target("100 fields ≤ 12× the 10-field cost: \(format(growth))×", growth <= 12, missing: "FieldMerge growth")
    // Issue #18: a ten-field FieldMerge within 2× of the floor (it was about 4.4× when the issue was written), timed
    // in alternating rounds rather than read off the table above, whose rows run at different moments.
    let paired = try MergeBenchmark.againstFloor(iterations: iterations)
    let overFloor = paired.merge / max(paired.floor, 1)
    target(
      "ten-field FieldMerge ≤ 2× the floor (alternating rounds, \(format(paired.merge, digits: 0)) vs "
        + "\(format(paired.floor, digits: 0)) ns): \(format(overFloor, digits: 2))×", overFloor <= 2,
      missing: "FieldMerge vs floor")
    if !arguments.contains("--quick"), let merge = Callgrind.instructionsPerUnit(section: "merge-resolutions"),
      let copy = Callgrind.instructionsPerUnit(section: "merge-floor")
    {
      let ratio = merge.perUnit / copy.perUnit
      print(
        "callgrind: \(format(merge.perUnit, digits: 0)) instructions per ten-field FieldMerge resolution, "
          + "\(format(copy.perUnit, digits: 0)) per floor copy")
      target(
        "ten-field FieldMerge ≤ 2× the floor in instructions: \(format(ratio, digits: 2))×", ratio <= 2,
        missing: "FieldMerge vs floor, instructions")
    }
  }

  // `--units N` runs N units instead, for a sampling profiler that needs a longer run.
  let units = argumentList.firstIndex(of: "--units").flatMap { argumentList.dropFirst($0 + 1).first }.flatMap {
    Int($0)
  }
  if counts("merge-resolutions") {
    print("units: \(try MergeBenchmark.instructionWorkload(floor: false, count: units ?? 20_000))")
  }
  if counts("merge-floor") {
    print("units: \(try MergeBenchmark.instructionWorkload(floor: true, count: units ?? 20_000))")
  }

  if runs("text-merge") {
    print("\nText merge: FieldMerge .text(.line, overlap: .both) against GNU diff3 -m on the same three files")
    if FileManager.default.isExecutableFile(atPath: TextMergeBenchmark.Diff3.path) {
      let rows = try TextMergeBenchmark.run(quick: arguments.contains("--quick"))
      var printed = [
        [
          "document", "edits", "bytes", "Reconcile ms", "diff3 -m ms", "diff3 work ms", "vs diff3 work",
          "diff3 conflicts", "same merge",
        ]
      ]
      for row in rows {
        printed.append([
          row.size, row.edits, String(row.bytes), format(row.reconcileMilliseconds, digits: 3),
          format(row.diff3Milliseconds, digits: 3), format(row.diff3WorkMilliseconds, digits: 3),
          format(row.reconcileMilliseconds / row.diff3WorkMilliseconds, digits: 3) + "×", String(row.diff3Conflicts),
          row.sameMerge ? "yes" : "NO",
        ])
      }
      print(table(printed))
      print(
        "diff3 work: diff3 -m's time less starting it (diff3 -m on three empty files, \(format(rows.first?.diff3StartMilliseconds ?? 0, digits: 3)) ms here)"
      )
      // On 1 KB, diff3's work is a few microseconds inside a start-up that varies by more: judged on the larger ones.
      let judged = rows.filter { $0.bytes >= 100_000 }
      let slowest = judged.map { $0.reconcileMilliseconds / $0.diff3WorkMilliseconds }.max() ?? .infinity
      target(
        "the line merge at least as fast as diff3 -m's work on 100 KB and 1 MB: slowest \(format(slowest, digits: 3))×",
        slowest <= 1, missing: "text merge vs diff3",
        sample: arguments.contains("--quick") ? "one round of each in --quick; start-up varies by more" : nil)
      let withStart = rows.map { $0.reconcileMilliseconds / $0.diff3Milliseconds }.max() ?? .infinity
      target(
        "the line merge faster than running diff3 -m on every document: slowest \(format(withStart, digits: 3))×",
        withStart <= 1, missing: "text merge vs running diff3")
      target(
        "the same merge as diff3 on every document (every hunk diff3 merges, merged the same)",
        rows.allSatisfy(\.sameMerge), missing: "text merge quality")
      for edits in Set(rows.map(\.edits)).sorted() {
        let small = rows.first { $0.size == "100 KB" && $0.edits == edits }?.reconcileMilliseconds ?? 0
        let large = rows.first { $0.size == "1 MB" && $0.edits == edits }?.reconcileMilliseconds ?? .infinity
        print("wall clock, 100 KB → 1 MB, \(edits): \(format(large / max(small, 1e-9)))×")
      }
      // Growth is judged on instructions: a 1 MB merge's three texts leave the cache a 100 KB one fits in, which the
      // wall clock above shows and an instruction count does not.
      if !arguments.contains("--quick"),
        let small = Callgrind.instructionsPerRepeat(
          section: "text-merge-work", environment: ["TEXT_MERGE_LINES": "2000"]),
        let large = Callgrind.instructionsPerRepeat(
          section: "text-merge-work", environment: ["TEXT_MERGE_LINES": "20000"])
      {
        print(
          "callgrind: \(format(small, digits: 0)) instructions per 100 KB merge, \(format(large, digits: 0)) per 1 MB "
            + "merge (one line in a hundred edited per side)")
        target(
          "100 KB → 1 MB growth ≤ 12× (instructions): \(format(large / small))×", large / small <= 12,
          missing: "text merge growth")
      } else {
        target(
          "100 KB → 1 MB growth ≤ 12× (instructions)", true, missing: "text merge growth",
          sample: "counted with callgrind in a full run")
      }
    } else {
      print("GNU diff3 is not at \(TextMergeBenchmark.Diff3.path); the comparison needs diffutils")
      failures.append("text merge vs diff3 (diff3 missing)")
    }
    print("\nText merge on hard inputs, beside git merge-file -p and diff3 -m on the same three files (overlap .both)")
    if GitMergeFileProcess.path != nil {
      let quick = arguments.contains("--quick")
      let rows = try HardTextMergeBenchmark.run(quick: quick, countsInstructions: !quick)
      var printed = [
        [
          "input", "granularity", "Reconcile ms", "git merge-file ms", "git work ms", "diff3 -m ms", "Reconcile instr.",
          "git instr.", "diff3 instr.", "vs git",
        ]
      ]
      for row in rows {
        printed.append([
          row.input, row.granularity.rawValue, format(row.reconcileMilliseconds, digits: 1),
          format(row.gitMilliseconds, digits: 1), format(row.gitWorkMilliseconds, digits: 1),
          format(row.diff3Milliseconds, digits: 1),
          row.reconcileInstructions.map { format($0 / 1e6, digits: 1) + " M" } ?? "-",
          row.gitInstructions.map { format($0 / 1e6, digits: 1) + " M" } ?? "-",
          row.diff3Instructions.map { format($0 / 1e6, digits: 1) + " M" } ?? "-",
          row.instructionRatio.map { format($0, digits: 2) + "×" } ?? "-",
        ])
      }
      print(table(printed))
      print(
        "git work: git merge-file's time less starting it (on three empty files, \(format(rows.first?.gitStartMilliseconds ?? 0, digits: 1)) ms here); "
          + "instructions by callgrind, git's and diff3's less their runs on empty files; both merge lines at every "
          + "granularity")
      let lineRatios = rows.filter { $0.granularity == .line }.compactMap(\.instructionRatio)
      target(
        "the line merge at most 2× git merge-file's instructions on 40,000 repetitive lines and 100 KB of prose: slowest \(format(lineRatios.max() ?? .infinity, digits: 2))×",
        !lineRatios.isEmpty && lineRatios.allSatisfy { $0 <= 2 }, missing: "hard text merge vs git",
        sample: quick ? "counted with callgrind in a full run" : nil)
      for (input, small, large, granularities) in [
        (HardTextMergeBenchmark.Input.repetitive, 4_000, 40_000, [FieldMerge.TextGranularity.line]),
        (.prose, 10_000, 100_000, [.line, .word, .character]),
      ] {
        for granularity in granularities {
          let name = "\(input.rawValue) by \(granularity.rawValue), \(small.formatted()) → \(large.formatted())"
          if !quick, let smallCount = HardTextMergeBenchmark.instructions(input, scale: small, granularity),
            let largeCount = rows.first(where: { $0.input.hasPrefix(input.rawValue) && $0.granularity == granularity })?
              .reconcileInstructions
          {
            print(
              "callgrind: \(name): \(format(smallCount, digits: 0)) → \(format(largeCount, digits: 0)) instructions")
            target(
              "\(name) growth ≤ 15× (instructions): \(format(largeCount / smallCount))×", largeCount / smallCount <= 15,
              missing: "hard text merge growth (\(name))")
          } else {
            target(
              "\(name) growth ≤ 15× (instructions)", true, missing: "hard text merge growth",
              sample: "counted with callgrind in a full run")
          }
        }
      }
    } else {
      print("git is not installed; the comparison with git merge-file needs it")
      failures.append("hard text merge vs git (git missing)")
    }
    print("\nList and counter policies on a ten-field record, against the floor (alternating rounds)")
    var policyRows = [["policy", "ns/resolution", "floor ns", "vs floor"]]
    let policies = try ListPolicyBenchmark.run(iterations: iterations / 4)
    for row in policies {
      policyRows.append([
        row.name, format(row.mergeNanoseconds, digits: 0), format(row.floorNanoseconds, digits: 0),
        format(row.mergeNanoseconds / max(row.floorNanoseconds, 1), digits: 2) + "×",
      ])
    }
    print(table(policyRows))
    // A list merge must read every element, so the floor (copy a record, write one key) anchors only the counter; the
    // list policies are judged against hand-written merges of the same lists below.
    for row in policies where row.name == ".counter" {
      let ratio = row.mergeNanoseconds / max(row.floorNanoseconds, 1)
      target("\(row.name) ≤ 2× the floor: \(format(ratio, digits: 2))×", ratio <= 2, missing: "\(row.name) vs floor")
    }
    print(
      "\nList merges against hand-written Swift over the same three lists (set algebra over Set; an LCS table's "
        + "three-way merge), alternating rounds")
    let listRows = ListMergeBenchmark.run(sizes: [6, 100, 1_000], budget: iterations * 5)
    var printedListRows = [["policy", "elements", "ns/merge", "hand-written ns", "ratio"]]
    for row in listRows {
      printedListRows.append([
        row.policy.rawValue, String(row.elements), format(row.reconcileNanoseconds, digits: 0),
        format(row.handWrittenNanoseconds, digits: 0),
        format(row.reconcileNanoseconds / row.handWrittenNanoseconds, digits: 2) + "×",
      ])
    }
    print(table(printedListRows))
    for policy in ListMergeBenchmark.Policy.allCases {
      let slowest =
        listRows.filter { $0.policy == policy }.map { $0.reconcileNanoseconds / $0.handWrittenNanoseconds }
        .max() ?? .infinity
      target(
        "\(policy.rawValue) ≤ 1× a hand-written merge at every size: slowest \(format(slowest, digits: 2))×",
        slowest <= 1, missing: "\(policy.rawValue) vs hand-written",
        sample: arguments.contains("--quick") ? "a few hundred merges in --quick" : nil)
    }
    for policy in ListMergeBenchmark.Policy.allCases {
      if !arguments.contains("--quick"),
        let small = Callgrind.instructionsPerRepeat(
          section: "list-merge-work", environment: ["LIST_POLICY": policy.rawValue, "LIST_ELEMENTS": "100"],
          repeatsKey: "LIST_REPEATS"),
        let large = Callgrind.instructionsPerRepeat(
          section: "list-merge-work", environment: ["LIST_POLICY": policy.rawValue, "LIST_ELEMENTS": "10000"],
          repeatsKey: "LIST_REPEATS")
      {
        print(
          "callgrind: \(policy.rawValue): \(format(small, digits: 0)) instructions per merge of 100 elements, "
            + "\(format(large, digits: 0)) of 10,000")
        target(
          "\(policy.rawValue) 100 → 10,000 elements ≤ 120× (instructions): \(format(large / small))×",
          large / small <= 120, missing: "\(policy.rawValue) growth")
      } else {
        target(
          "\(policy.rawValue) 100 → 10,000 elements ≤ 120× (instructions)", true,
          missing: "\(policy.rawValue) growth", sample: "counted with callgrind in a full run")
      }
    }
  }

  if counts("list-policies-work") {
    // Callgrind's view of the list and counter policies: 10,000 resolutions of each, or of the one LIST_POLICY names
    // (".set", say).
    let only = ProcessInfo.processInfo.environment["LIST_POLICY"]
    print("resolutions: \(try ListPolicyBenchmark.run(iterations: 10_000, rounds: 1, only: only).count * 10_000)")
  }

  if counts("list-merge-work") {
    // Callgrind's view of one list merge: LIST_REPEATS merges (1 unless given) of LIST_POLICY's lists of LIST_ELEMENTS.
    let environment = ProcessInfo.processInfo.environment
    let policy = environment["LIST_POLICY"].flatMap(ListMergeBenchmark.Policy.init(rawValue:)) ?? .orderedList
    let lists = ListMergeBenchmark.lists(elements: environment["LIST_ELEMENTS"].flatMap(Int.init) ?? 100)
    var total = 0
    for _ in 0..<(environment["LIST_REPEATS"].flatMap(Int.init) ?? 1) {
      total &+= ListMergeBenchmark.reconcile(policy, lists).count
    }
    print("units: \(total)")
  }

  if counts("text-merge-work") {
    let lines = ProcessInfo.processInfo.environment["TEXT_MERGE_LINES"].flatMap(Int.init) ?? 20_000
    let repeats = ProcessInfo.processInfo.environment["TEXT_MERGE_REPEATS"].flatMap(Int.init) ?? 1
    print("units: \(try TextMergeBenchmark.instructionWorkload(lines: lines, repeats: repeats))")
  }

  if counts("hard-text-merge-work") {
    let environment = ProcessInfo.processInfo.environment
    let input = environment["HARD_TEXT_INPUT"].flatMap(HardTextMergeBenchmark.Input.init(rawValue:)) ?? .repetitive
    print(
      "units: \(try HardTextMergeBenchmark.instructionWorkload(input, scale: environment["HARD_TEXT_SCALE"].flatMap(Int.init) ?? 40_000, granularity: environment["HARD_TEXT_GRANULARITY"].flatMap(FieldMerge.TextGranularity.init(rawValue:)) ?? .line, repeats: environment["TEXT_MERGE_REPEATS"].flatMap(Int.init) ?? 1))"
    )
  }

  if runs("simulator") {
    print("\nSimulator throughput: the CI configuration (200 steps, 3 devices, deleteWins), whole runs with quiescence")
    let seedCount = arguments.contains("--quick") ? 5 : 200
    let throughput = SimulatorBenchmark.throughput(seeds: seedCount)
    var runRows = [["resolver, faults", "seeds", "steps/s", "seeds/s"]]
    for r in throughput {
      runRows.append([
        r.label, String(r.seeds), format(r.stepsPerSecond, digits: 0), format(r.seedsPerSecond, digits: 1),
      ])
    }
    print(table(runRows))
    let ciRate = throughput.first { $0.label == "field-merge, flaky" }?.stepsPerSecond ?? 0
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let parallel = SimulatorBenchmark.parallelThroughput(seeds: seedCount * 2, jobs: cores)
    print(
      "field-merge, flaky on \(cores) cores (explore's --jobs): \(format(parallel.stepsPerSecond, digits: 0)) steps/s, "
        + "\(format(parallel.seedsPerSecond, digits: 1)) seeds/s")
    // Issue #18 quoted about 46,000 steps/s for field-merge with flaky faults before its work. Built and run beside
    // today's code on this project's CI machine, that code (56879d0) gave 91,000–94,000 steps/s on one thread in its own
    // benchmark at one stop and 85,000–88,000 at the next, so the fixed figure is not a baseline to claim 2× against:
    // it is the high end, kept so the printed ratio errs low. The machine-independent comparison is the instruction
    // count below.
    let before = 92_000.0
    print(
      "field-merge, flaky vs the 92,000 steps/s the code before issue #18 ran at on one thread (measured 2026-11-24): "
        + "\(format(ciRate / before, digits: 2))× on one thread, \(format(parallel.stepsPerSecond / before, digits: 2))× "
        + "on all cores")
    if !arguments.contains("--quick"), let instructions = Callgrind.instructionsPerUnit(section: "simulator-steps") {
      print(
        "callgrind: \(format(instructions.perUnit, digits: 0)) instructions per step (field-merge, flaky, "
          + "\(instructions.units) steps; wall clocks vary, instruction counts do not)")
      // The code before issue #18's work (56879d0) took 136,300 instructions per step, counted on 2026-11-24 through
      // explore (field-merge, flaky, 20 seeds less 1, Swift 6.3.1); issue #67 holds every judged step to 60,000.
      let beforeInstructions = 136_300.0
      print(
        "  \(format(beforeInstructions / instructions.perUnit, digits: 2))× fewer than the 136,300 before issue #18")
      target(
        "≤ 60,000 instructions per simulated step, every record judged: \(format(instructions.perUnit, digits: 0))",
        instructions.perUnit <= 60_000, missing: "simulator instructions per step")
    }
    target(
      "≥ 100,000 simulated steps/s (field-merge, flaky) on one thread: \(format(ciRate, digits: 0))", ciRate >= 100_000,
      missing: "simulator steps/s")
    if !arguments.contains("--quick") { simulatorGrowth() }
  }

  if counts("simulator-steps") { print("units: \(SimulatorBenchmark.instructionWorkload())") }
  for devices in [2, 4, 8] where counts("simulator-steps-\(devices)-devices") {
    print("units: \(SimulatorBenchmark.instructionWorkload(devices: devices))")
  }
  if counts("simulator-steps-long") {
    print("units: \(SimulatorBenchmark.instructionWorkload(seeds: 2, steps: 2_000))")
  }
  if counts("simulator-steps-budgeted") {
    let name = ProcessInfo.processInfo.environment["BUDGETED"] ?? ""
    print("units: \(SimulatorBenchmark.budgetedWorkload(named: name))")
  }
  if counts("simulator-steps-zone") {
    let environment = ProcessInfo.processInfo.environment
    print(
      "units: \(SimulatorBenchmark.populatedWorkload(records: environment["ZONE_RECORDS"].flatMap(Int.init) ?? 100, faults: environment["ZONE_FAULTS"].flatMap(FaultProfile.named) ?? .flaky, steps: environment["ZONE_STEPS"].flatMap(Int.init) ?? 200))"
    )
  }

  if runs("pending") {
    print("\nPending record changes: each added, asked about, and removed as its save is answered, one at a time")
    let quick = arguments.contains("--quick")
    let few = try PendingChangesBenchmark.nanosecondsPerChange(count: 100, iterations: quick ? 20 : 2_000)
    let many = try PendingChangesBenchmark.nanosecondsPerChange(count: 10_000, iterations: quick ? 1 : 20)
    print(
      table([
        ["changes pending at most", "ns per change"], ["100", format(few, digits: 0)],
        ["10,000", format(many, digits: 0)],
      ]))
    // With the scans put back (each add and each removal searching the list), a change cost 70 times as much at 10,000
    // as at 100 (measured 2026-11-29 with --quick); the target fires.
    target(
      "a change costs at most 3× as much with 10,000 pending as with 100: \(format(many / few, digits: 2))×",
      many <= 3 * few, missing: "pending changes constant per change", sample: quick ? "--quick" : nil)
  }

  if runs("workload") {
    let seedCount = arguments.contains("--quick") ? 20 : 500
    print("\nWorkload coverage: \(seedCount) seeds × 200 steps, 3 devices, field-merge, deleteWins")
    let flaky = WorkloadBenchmark.coverage(
      "flaky", SimulationConfiguration(deviceCount: 3, steps: 200, resolver: .fieldMerge, faults: .flaky),
      seeds: seedCount)
    let swarm = WorkloadBenchmark.coverage(
      "swarm", SimulationConfiguration(deviceCount: 3, steps: 200, resolver: .fieldMerge, faults: .swarm),
      seeds: seedCount)
    var spreadConfiguration = SimulationConfiguration(deviceCount: 3, steps: 200, resolver: .fieldMerge, faults: .flaky)
    spreadConfiguration.workload = .spread
    let spread = WorkloadBenchmark.coverage("flaky, spread workload (baseline)", spreadConfiguration, seeds: seedCount)
    func percent(_ value: Double) -> String { format(value * 100, digits: 0) + "%" }
    var rows = [
      [
        "faults", "conflicts/run", "runs without", "moreComing", "limitExceeded", "batchRequestFailed",
        "token expired", "torn crash", "resurrection blocked", "failed runs",
      ]
    ]
    for c in [spread, flaky, swarm] {
      rows.append([
        c.label, format(Double(c.conflicts) / Double(max(1, c.runs)), digits: 1),
        percent(c.share(c.runsWithoutConflict)),
        percent(c.share(c.runsPaging)), percent(c.share(c.runsLimitExceeded)), percent(c.share(c.runsBatchFailed)),
        percent(c.share(c.runsTokenExpired)), percent(c.share(c.runsTornCrash)),
        percent(c.share(c.runsResurrectionBlocked)), String(c.failures),
      ])
    }
    print(table(rows))
    // Shares of 20 seeds move by 5% a seed: too coarse to hold to targets set on 500.
    let small = seedCount < 500 ? "\(seedCount) seeds are too few; the full run of 500 judges it" : nil
    let perRun = Double(flaky.conflicts) / Double(max(1, flaky.runs))
    target(
      "flaky: ≥ 15 server conflicts per run: \(format(perRun, digits: 1))", perRun >= 15, missing: "conflicts per run",
      sample: small)
    target(
      "flaky: < 5% of runs without a conflict: \(percent(flaky.share(flaky.runsWithoutConflict)))",
      flaky.share(flaky.runsWithoutConflict) < 0.05, missing: "runs without conflict", sample: small)
    target(
      "swarm: ≥ 25% of runs page with moreComing: \(percent(swarm.share(swarm.runsPaging)))",
      swarm.share(swarm.runsPaging) >= 0.25, missing: "moreComing runs", sample: small)
    target(
      "swarm: ≥ 20% of runs see limitExceeded: \(percent(swarm.share(swarm.runsLimitExceeded)))",
      swarm.share(swarm.runsLimitExceeded) >= 0.2, missing: "limitExceeded runs", sample: small)
    target(
      "swarm: ≥ 10% of runs see batchRequestFailed: \(percent(swarm.share(swarm.runsBatchFailed)))",
      swarm.share(swarm.runsBatchFailed) >= 0.1, missing: "batchRequestFailed runs", sample: small)
    target(
      "swarm: ≥ 10% of runs crash between two persistence writes: \(percent(swarm.share(swarm.runsTornCrash)))",
      swarm.share(swarm.runsTornCrash) >= 0.1, missing: "torn crash runs", sample: small)
  }

  if runs("feed") {
    print("\nZone changes: the same 100 recent changes, fetched after a short and a long history")
    let long = arguments.contains("--quick") ? 100_000 : 1_000_000
    let short = try SimulatorBenchmark.feedCost(history: 1_000, repetitions: 2_000)
    let longCost = try SimulatorBenchmark.feedCost(history: long, repetitions: 2_000)
    print(
      table([
        ["history", "changes returned", "µs/fetch"],
        [String(short.history), String(short.changes), format(short.nanoseconds / 1_000, digits: 1)],
        [String(longCost.history), String(longCost.changes), format(longCost.nanoseconds / 1_000, digits: 1)],
      ]))
    let feedRatio = longCost.nanoseconds / short.nanoseconds
    target(
      "\(long)-change history ≤ 1.5× the 1,000-change cost: \(format(feedRatio, digits: 2))×", feedRatio <= 1.5,
      missing: "change feed history ratio")
  }

  if runs("hostile") {
    print("\nHostile inputs at two sizes ten times apart (growth per byte: 1.0 is linear)")
    let before = peakResidentBytes()
    let hostile = try HostileInputBenchmark.run(rounds: arguments.contains("--quick") ? 1 : 3)
    var rows = [["input", "bytes", "ms", "bytes ×10", "ms", "growth/byte", "baseline ms (large)"]]
    for r in hostile {
      rows.append([
        r.name, String(r.smallBytes), format(r.smallSeconds * 1e3, digits: 2), String(r.largeBytes),
        format(r.largeSeconds * 1e3, digits: 2), format(r.growthPerByte, digits: 2),
        r.baselineSeconds.map { "\(r.baselineName ?? "") \(format($0 * 1e3, digits: 2))" } ?? "-",
      ])
    }
    print(table(rows))
    let peak = peakResidentBytes()
    print("peak resident memory: \(before / 1_048_576) MB before this section, \(peak / 1_048_576) MB after")
    // Quadratic work would grow about 10× per byte here; cache effects alone reach 2–3× on 100,000-entry tables.
    let worst = hostile.max { $0.growthPerByte < $1.growthPerByte }
    let worstText = worst.map { "\($0.name) \(format($0.growthPerByte, digits: 2))" } ?? "-"
    target(
      "every hostile input grows ≤ 3× faster than its size: worst \(worstText)", (worst?.growthPerByte ?? 0) <= 3,
      missing: "hostile input growth")
  }
  if runs("bodies") {
    print(
      "\nWeb Services bodies: typed decode beside the strict byte check, Foundation's untyped parse and plain Codable")
    var rows = [
      [
        "body", "bytes", "µs typed", "MB/s", "µs check", "µs JSONSerialization", "µs Codable", "vs JSONSerialization",
        "vs Codable",
      ]
    ]
    let results = try WebServicesBenchmark.run(iterations: iterations)
    for r in results {
      rows.append([
        r.name, String(r.bytes), format(r.nsTyped / 1e3), format(Double(r.bytes) / r.nsTyped * 1e3, digits: 0),
        format(r.nsCheck / 1e3), format(r.nsFoundation / 1e3), format(r.nsCodable / 1e3),
        format(r.nsTyped / r.nsFoundation) + "×", format(r.nsTyped / r.nsCodable) + "×",
      ])
    }
    print(table(rows))
    print(
      "Codable: JSONDecoder into plain structs of the same shapes, a field's value read by its type, nothing checked "
        + "(Benchmarks/ReconcileBenchmarks/PlainCodableBodies.swift)")
    // Issue #34: typed decoding at least as fast as JSONSerialization's untyped parse, and faster than plain Codable.
    let slowestUntyped = results.map { $0.nsTyped / $0.nsFoundation }.max() ?? 0
    let slowestCodable = results.map { $0.nsTyped / $0.nsCodable }.max() ?? 0
    target(
      "typed decode ≤ 1.0× JSONSerialization on every body: slowest \(format(slowestUntyped))×", slowestUntyped <= 1,
      missing: "typed decode vs JSONSerialization")
    target(
      "typed decode < 1.0× plain Codable on every body: slowest \(format(slowestCodable))×", slowestCodable < 1,
      missing: "typed decode vs Codable")
    if !arguments.contains("--quick") {
      // Counted per body, so a small body's ratio is judged on its own rather than hidden in the 200-record page's.
      var countedRows = [["body", "typed", "JSONSerialization", "Codable", "vs JSONSerialization", "vs Codable"]]
      var worst = (untyped: 0.0, codable: 0.0)
      for (index, result) in results.enumerated() {
        let counted = ["typed", "untyped", "codable"].compactMap { decoder in
          Callgrind.instructionsPerRepeat(
            section: "bodies-work", environment: ["BODY_DECODER": decoder, "BODY_INDEX": String(index)],
            repeatsKey: "BODY_REPEATS")
        }
        guard counted.count == 3 else { break }
        worst = (max(worst.untyped, counted[0] / counted[1]), max(worst.codable, counted[0] / counted[2]))
        countedRows.append([
          result.name, format(counted[0], digits: 0), format(counted[1], digits: 0), format(counted[2], digits: 0),
          format(counted[0] / counted[1], digits: 2) + "×", format(counted[0] / counted[2], digits: 2) + "×",
        ])
      }
      if countedRows.count == results.count + 1 {
        print("callgrind, instructions per decode:")
        print(table(countedRows))
        target(
          "typed decode ≤ 1.0× JSONSerialization in instructions on every body: slowest \(format(worst.untyped, digits: 2))×",
          worst.untyped <= 1, missing: "typed decode vs JSONSerialization, instructions")
        target(
          "typed decode < 1.0× plain Codable in instructions on every body: slowest \(format(worst.codable, digits: 2))×",
          worst.codable < 1, missing: "typed decode vs Codable, instructions")
      }
    }
  }
  if counts("bodies-work") { print("units: \(try WebServicesBenchmark.instructionWorkload())") }
} catch {
  print("benchmark failed: \(error)")
  exit(2)
}

if arguments.contains("--check") && !failures.isEmpty {
  print("missed targets: \(failures.joined(separator: ", "))")
  exit(1)
}

/// How the simulator's cost per step grows, counted with callgrind: with the devices that act (2, 3, 4 and 8), and
/// with the run's length (10× longer runs, which must not cost more per step: the history's length is no cost).
@MainActor func simulatorGrowth() {
  var rows = [["field-merge, flaky", "instructions per step", "× 3 devices, 200 steps"]]
  guard let base = Callgrind.instructionsPerUnit(section: "simulator-steps")?.perUnit else { return }
  for (label, section) in [
    ("2 devices", "simulator-steps-2-devices"), ("3 devices", nil), ("4 devices", "simulator-steps-4-devices"),
    ("8 devices", "simulator-steps-8-devices"), ("3 devices, 2,000 steps", "simulator-steps-long"),
  ] {
    let perStep = section.flatMap { Callgrind.instructionsPerUnit(section: $0)?.perUnit } ?? base
    rows.append([label, format(perStep, digits: 0), format(perStep / base, digits: 2) + "×"])
    if section == "simulator-steps-long" {
      target(
        "a run 10× longer costs ≤ 1.1× per step: \(format(perStep / base, digits: 2))×", perStep / base <= 1.1,
        missing: "simulator cost per step with the run's length")
    }
  }
  print(table(rows))
  // Each configuration a user can pick that the budget covers, on its own line, so a feature's cost shows in the issue
  // that adds it.
  for (name, _) in SimulatorBenchmark.budgeted {
    guard
      let counted = Callgrind.instructionsPerUnit(
        section: "simulator-steps-budgeted", environment: ["BUDGETED": name])
    else { continue }
    target(
      "\(name): ≤ 60,000 instructions per step (5 seeds): \(format(counted.perUnit, digits: 0))",
      counted.perUnit <= 60_000, missing: "simulator budget, \(name)")
  }
  // The zone's size: untouched records must cost a step nothing. Each row is the runs' cost beyond the same runs
  // populated and judged with no step, per step. Without faults, and with sync resets made plain syncs: listing a zone
  // from its beginning (a reset, an expired token, a damaged store) costs every record, in CloudKit too.
  var zoneRows = [["field-merge, no faults, no resets, 5 seeds", "instructions per step", "× 100 records"]]
  var perRecords: [Int: Double] = [:]
  for (records, label) in [(100, "100"), (10_000, "10,000")] {
    guard
      let counted = Callgrind.instructionsPerUnit(
        section: "simulator-steps-zone",
        environment: ["ZONE_RECORDS": "\(records)", "ZONE_STEPS": "200", "ZONE_FAULTS": "none"],
        beyond: ["ZONE_RECORDS": "\(records)", "ZONE_STEPS": "0", "ZONE_FAULTS": "none"])
    else { continue }
    perRecords[records] = counted.perUnit
    let ratio = perRecords[100].map { counted.perUnit / $0 } ?? 1
    zoneRows.append([
      "\(label) records in the zone", format(counted.perUnit, digits: 0), format(ratio, digits: 2) + "×",
    ])
  }
  if zoneRows.count > 1 { print(table(zoneRows)) }
  if let small = perRecords[100], let large = perRecords[10_000] {
    target(
      "10,000 records in the zone cost ≤ 1.2× per step of 100: \(format(large / small, digits: 2))×",
      large / small <= 1.2, missing: "simulator cost per step with the zone's size")
  }
}
