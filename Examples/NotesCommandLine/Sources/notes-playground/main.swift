import NotesSync
import ReconcilePlayground

PlaygroundCommand.main(clients: [.miniNotes, .forgetfulNotes, .notesApp], resolvers: [.notesMerge])
