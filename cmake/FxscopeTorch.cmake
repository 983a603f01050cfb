# LibTorch comes from one place: the Python environment named by FXSCOPE_PYTHON (make writes it to
# build/fxscope-python; scripts/python-env.sh creates .venv with torch 2.13.0 when none is named). Its
# torch.utils.cmake_prefix_path leads find_package(Torch) to the very libraries that Python loads, so a user's
# CUDA or torch_npu environment gives a runtime module built against the same LibTorch as their device plugin.
set(_fxscope_python_file "${CMAKE_BINARY_DIR}/fxscope-python")
if(EXISTS "${_fxscope_python_file}")
  # A change of environment (make FXSCOPE_PYTHON=...) re-runs CMake.
  set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_fxscope_python_file}")
  file(STRINGS "${_fxscope_python_file}" _fxscope_python LIMIT_COUNT 1)
elseif(DEFINED ENV{FXSCOPE_PYTHON})
  set(_fxscope_python "$ENV{FXSCOPE_PYTHON}")
else()
  set(_fxscope_python "${CMAKE_SOURCE_DIR}/.venv/bin/python")
endif()
set(FXSCOPE_PYTHON "${_fxscope_python}" CACHE FILEPATH "Python interpreter whose torch (>= 2.1) fxscope links and tests with" FORCE)

execute_process(
  COMMAND "${FXSCOPE_PYTHON}" -c "import os, sysconfig, torch, torch.utils; print(torch.__version__); print(torch.utils.cmake_prefix_path); v = sysconfig.get_config_var; print(os.path.join(v('LIBDIR'), v('LDLIBRARY')) if v('Py_ENABLE_SHARED') else '')"
  OUTPUT_VARIABLE _fxscope_torch_out ERROR_VARIABLE _fxscope_torch_err RESULT_VARIABLE _fxscope_torch_rc
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _fxscope_torch_rc EQUAL 0)
  message(FATAL_ERROR "${FXSCOPE_PYTHON} cannot import torch (run `make deps`, or set FXSCOPE_PYTHON to an "
                      "interpreter with torch >= 2.1):\n${_fxscope_torch_err}")
endif()
string(REPLACE "\n" ";" _fxscope_torch_out "${_fxscope_torch_out}")
list(GET _fxscope_torch_out 0 FXSCOPE_TORCH_VERSION)
list(GET _fxscope_torch_out 1 _fxscope_torch_prefix)
# The shared libpython of that environment (empty for a static one): a device plugin built on torch's Python bindings
# (torch_npu's libtorch_npu.so) needs it loaded first.
set(FXSCOPE_LIBPYTHON "")
list(LENGTH _fxscope_torch_out _fxscope_torch_lines)
if(_fxscope_torch_lines GREATER 2)
  list(GET _fxscope_torch_out 2 FXSCOPE_LIBPYTHON)
endif()
if(FXSCOPE_TORCH_VERSION VERSION_LESS 2.1)
  message(FATAL_ERROR "${FXSCOPE_PYTHON} has torch ${FXSCOPE_TORCH_VERSION}; fxscope needs torch >= 2.1")
endif()
list(PREPEND CMAKE_PREFIX_PATH "${_fxscope_torch_prefix}")
find_package(Torch REQUIRED CONFIG)
message(STATUS "LibTorch ${FXSCOPE_TORCH_VERSION} from ${FXSCOPE_PYTHON}")

# LibTorch ships its own fmt headers (torch/include/fmt, fmt 12 in torch 2.13); spdlog from Debian is built with
# Debian's fmt. A target that includes both gets Debian's fmt first through a folder holding only a link to it.
find_package(fmt REQUIRED)
get_target_property(_fxscope_fmt_include fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
set(FXSCOPE_SYSTEM_FMT_DIR "${CMAKE_BINARY_DIR}/system-fmt")
file(MAKE_DIRECTORY "${FXSCOPE_SYSTEM_FMT_DIR}")
file(CREATE_LINK "${_fxscope_fmt_include}/fmt" "${FXSCOPE_SYSTEM_FMT_DIR}/fmt" SYMBOLIC)
