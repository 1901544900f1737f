import Foundation
import ReconcilePlayground

let status = PlaygroundCommand.run(
  arguments: Array(CommandLine.arguments.dropFirst()), output: StandardOutput(), environment: .process)
exit(status)
