import ReconcilePlayground
import Testing

@Suite("Playground command line")
struct PlaygroundCommandTests {
  @Test("demo runs and exits 0")
  func demo() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["demo"], output: out) == 0)
    #expect(out.text.contains("Reconcile playground"))
  }

  @Test("a misspelt subcommand gets a suggestion and exit status 64")
  func suggestion() {
    let out = BufferedOutput()
    #expect(PlaygroundCommand.run(arguments: ["dmeo"], output: out) == 64)
    #expect(out.text.contains("did you mean 'demo'?"))
  }
}
