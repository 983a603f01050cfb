# Install and package (issue 23, item 3): `cmake --install build --prefix P` (make install PREFIX=P) and
# `cpack -G DEB` (make deb). The layout, which util/install_layout.cpp reads relative to the program:
#   P/bin/fxscope, P/bin/fxscope-cli
#   P/lib/fxscope/libfxscope_runtime.so, libfxscope_emulated_npu.so   the LibTorch runtime module and its plugin
#   P/share/fxscope/samples, patterns                                  resources/
#   P/share/fxscope/python/fxscope_capture, fxscope_capture-*.whl      the capture package (PYTHONPATH; pip install)
#   P/share/applications/fxscope.desktop, P/share/icons/hicolor/scalable/apps/fxscope.svg
# Paths are fixed (lib/fxscope, not GNUInstallDirs' lib/<triplet>): the program finds them from its own folder.

install(TARGETS fxscope-cli RUNTIME DESTINATION bin)
if(FXSCOPE_GUI)
  install(TARGETS fxscope RUNTIME DESTINATION bin)
endif()

# The runtime module links the LibTorch of FXSCOPE_PYTHON's torch by its path (no Debian package has LibTorch), so
# installed it keeps that path; where it is missing, the program loads LibTorch from the torch of FXSCOPE_PYTHON
# (optimizer/runtime/runtime_library.cpp), which must be the same version.
set_target_properties(fxscope_runtime fxscope_emulated_npu PROPERTIES INSTALL_RPATH "${TORCH_INSTALL_PREFIX}/lib")
install(TARGETS fxscope_runtime fxscope_emulated_npu LIBRARY DESTINATION lib/fxscope)

install(DIRECTORY resources/samples resources/patterns DESTINATION share/fxscope PATTERN __pycache__ EXCLUDE)
install(DIRECTORY python/fxscope_capture DESTINATION share/fxscope/python PATTERN __pycache__ EXCLUDE)
install(FILES resources/desktop/fxscope.desktop DESTINATION share/applications)
install(FILES resources/desktop/fxscope.svg DESTINATION share/icons/hicolor/scalable/apps)
install(FILES README.md DESTINATION share/doc/fxscope)

# The wheel is built at install time, from a copy (pip writes build/ and egg-info beside the sources), with the
# Python the runtime is built for and without build isolation (no download of setuptools).
install(CODE "set(FXSCOPE_WHEEL_PYTHON \"${FXSCOPE_PYTHON}\")
set(FXSCOPE_WHEEL_SOURCE \"${CMAKE_SOURCE_DIR}/python\")
set(FXSCOPE_WHEEL_WORK \"${CMAKE_BINARY_DIR}/python-wheel\")")
install(SCRIPT cmake/FxscopeWheel.cmake)

# A test installs into a temporary prefix and runs the installed programs from outside the source tree.
add_test(NAME install_prefix
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/scripts/install_test.sh ${CMAKE_BINARY_DIR} $<BOOL:${FXSCOPE_GUI}>)
set_tests_properties(install_prefix PROPERTIES TIMEOUT 300 ENVIRONMENT "FXSCOPE_TORCHAIR_PATTERNS=")

# The .deb. Its Depends come from dpkg-shlibdeps on the programs (Qt 6, Graphviz, libzip, spdlog/fmt, ...), plus
# what is loaded at run time rather than linked: Qt's platform plugins and python3 (--check-with-torch, the Torch
# column). LibTorch is not a Debian package: README.md, "Install", says how the package finds it.
set(CPACK_PACKAGE_NAME fxscope)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Debugger for PyTorch FX graph fusion passes")
set(CPACK_PACKAGE_DESCRIPTION "fxscope shows why each fusion pattern of a torch.compile backend (Inductor, TorchAir) \
fired or not on a captured FX graph, what each fusion did, and whether the fused graph is still right and faster. \
The runtime module is built against torch ${FXSCOPE_TORCH_VERSION}; profiling needs that torch in FXSCOPE_PYTHON.")
set(CPACK_PACKAGE_CONTACT "fxscope developers <fxscope@invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
if(FXSCOPE_GUI)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-pip")
include(CPack)
