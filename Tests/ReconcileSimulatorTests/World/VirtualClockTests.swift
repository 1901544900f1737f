import Foundation
import ReconcileSimulator
import Testing

@Suite("Virtual clock")
struct VirtualClockTests {
  @Test("starts at a fixed instant and moves only forward")
  func movesForwardOnly() {
    var clock = VirtualClock()
    let start = clock.now
    #expect(start == Date(timeIntervalSince1970: 1_704_067_200))
    clock.advance(by: 30)
    #expect(clock.now == start.addingTimeInterval(30))
    clock.advance(by: -10)
    clock.advance(by: .nan)
    #expect(clock.now == start.addingTimeInterval(30))
  }
}
