from flowctx_tui.cli import main

raise SystemExit(main())
