"""`python -m repotrans.cli ...`"""
import sys

from repotrans.cli.main import main

sys.exit(main())
