"""Packages of the wheel: every repotrans package, plus the top-level folders mapped into it as data
packages (pyproject [tool.setuptools.package-dir] says where each comes from). pyproject.toml holds
everything else."""
from setuptools import find_packages, setup

MAPPED = ["repotrans.tools.schemas", "repotrans.tools.schemas.steps", "repotrans.prompts.templates"]

setup(packages=find_packages(include=["repotrans", "repotrans.*"]) + MAPPED)
