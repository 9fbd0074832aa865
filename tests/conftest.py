import os

from simkit.engine.compile_aside import SWITCH

# The suite's processes share the machine's cores (pytest-xdist): a kernel's first compile stays
# in the process that needs it. tests/engine/test_compile_aside.py and test_kernel_cache.py test
# the compile in a child with the switch set back.
os.environ.setdefault(SWITCH, "0")
