import ReconcileSimulator
import Testing

@Suite("Reference client's defect set")
struct DefectSetTests {
  @Test("every defect has its own bit: a set of one holds that defect and no other")
  func bitsDiffer() {
    for defect in ClientDefect.allCases {
      let set = DefectSet([defect])
      for other in ClientDefect.allCases {
        #expect(set.contains(other) == (other == defect), "\(defect) and \(other) share a bit")
      }
    }
    #expect(ClientDefect.allCases.allSatisfy { !DefectSet([]).contains($0) }, "the shipped client makes none")
    #expect(DefectSet(ClientDefect.allCases).contains(.retryEarly))
  }
}
