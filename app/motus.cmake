# The desktop application `motus` (app/motus.c + ui/), included from
# ui/CMakeLists.txt. Built into build/app/ beside motus-cli, so that it finds
# the message catalogues in build/locale like motus-cli does.
include(GNUInstallDirs)
add_executable(motus ${PROJECT_SOURCE_DIR}/app/motus.c ${PROJECT_SOURCE_DIR}/app/app_common.c)
target_link_libraries(motus PRIVATE motus_ui ${CMAKE_DL_LIBS})
set_target_properties(motus PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/app)
target_compile_definitions(motus PRIVATE MOTUS_INSTALL_LOCALEDIR="${CMAKE_INSTALL_FULL_LOCALEDIR}"
  MOTUS_VERSION="${PROJECT_VERSION}")
install(TARGETS motus RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/resources/org.motus.Motus.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/org.motus.Motus.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/resources/org.motus.Motus.svg
  DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
