/// The playground's exit statuses, the same for every subcommand.
package enum ExitStatus {
  /// 0: everything ran and every check held.
  package static let ok: Int32 = 0
  /// 1: a check failed (an invariant, an `expect`, an unreadable input file), or something could not be done.
  package static let failed: Int32 = 1
  /// 2: the command line is wrong (an unknown subcommand or option, a missing or bad value); nothing ran.
  package static let usage: Int32 = 2
}
