from oche.cli import main

raise SystemExit(main())
