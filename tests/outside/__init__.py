"""Issue 25's outside measure of ikc's motion outputs: plain Python 3 + numpy
(run with /usr/bin/python3), no ikit code.

- reader.py: glTF (.glb/.gltf) and BVH readers, world joint positions per frame.
- measure.py: limb directions in each body's own frame against the source take;
  skating, sinking, knee flips and joint speeds found on the output itself.
- variants.py: Mixamo-like rigs (0.01 armature, centimetres, Z-up, A-pose) and
  synthetic takes (sideways, backwards, crossover), written to a folder you give.
- run_matrix.py: every take x rig through `ikc retarget` and `ikc clean`, measured:
      /usr/bin/python3 tests/outside/run_matrix.py --ikc build/outside/ikc --out /tmp/om
- python/tests/test_outside_motion.py: the same as pytest goals (one test per goal).
"""
