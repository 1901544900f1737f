import NotesSync
import ReconcilePlayground

PlaygroundCommand.main(clients: [.miniNotes, .forgetfulNotes], resolvers: [.notesMerge])
