import ReconcilePlayground

PlaygroundCommand.main()
