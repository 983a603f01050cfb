# Install-time part of cmake/FxscopeInstall.cmake: builds the fxscope_capture wheel with
# `python -m pip wheel --no-deps` and installs it into share/fxscope/python (file(INSTALL) honours DESTDIR).
file(REMOVE_RECURSE "${FXSCOPE_WHEEL_WORK}")
file(COPY "${FXSCOPE_WHEEL_SOURCE}/fxscope_capture" DESTINATION "${FXSCOPE_WHEEL_WORK}/src"
     PATTERN __pycache__ EXCLUDE)
file(COPY "${FXSCOPE_WHEEL_SOURCE}/pyproject.toml" DESTINATION "${FXSCOPE_WHEEL_WORK}/src")
execute_process(
  COMMAND "${FXSCOPE_WHEEL_PYTHON}" -m pip wheel "${FXSCOPE_WHEEL_WORK}/src" --no-deps --no-build-isolation --quiet
          -w "${FXSCOPE_WHEEL_WORK}/dist"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB wheel "${FXSCOPE_WHEEL_WORK}/dist/fxscope_capture-*.whl")
if(NOT rc EQUAL 0 OR NOT wheel)
  message(FATAL_ERROR "cannot build the fxscope_capture wheel with ${FXSCOPE_WHEEL_PYTHON} -m pip wheel "
                      "(it needs pip and setuptools >= 61):\n${out}${err}")
endif()
file(INSTALL ${wheel} DESTINATION "${CMAKE_INSTALL_PREFIX}/share/fxscope/python")
