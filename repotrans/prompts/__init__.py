"""Prompt templates: loading, slot building and rendering."""
from repotrans.prompts.render import STEPS, render, template_names

__all__ = ["STEPS", "render", "template_names"]
