"""C# skeletons for Java types the port does not have yet: conventions learned from the port
(conventions.py, names.py), rendering (render.py), which types and files (generate.py), writing them
into the projects (place.py), compiling them with the port (check.py); create.py runs the steps."""
