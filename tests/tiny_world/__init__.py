"""A whole world in one folder, as a world is added to eai-gym: its data (``tasks.json``), its transition model
(``world.py``), its Gymnasium env (``env.py``), its task set (``taskset.py``), its scoring mode (``scoring.py``) and
its registry entry (``spec.py``). ``tests/test_tiny_world.py`` adds it with one line,
``registry.register_world(spec.WORLD)``, and runs the command line and the registry's checks on it; no file of the
package changes for it.

A box, a key and a door: open the box, take the key, unlock the door, open it.
"""
