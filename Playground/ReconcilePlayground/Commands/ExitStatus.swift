/// The playground's exit statuses, the same for every subcommand.
public enum ExitStatus {
  /// 0: everything ran and every check held.
  public static let ok: Int32 = 0
  /// 1: a check failed (an invariant, an `expect`, an unreadable input file), or something could not be done.
  public static let failed: Int32 = 1
  /// 2: the command line is wrong (an unknown subcommand or option, a missing or bad value); nothing ran.
  public static let usage: Int32 = 2
}
