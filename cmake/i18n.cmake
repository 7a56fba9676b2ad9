# i18n.cmake — translations of the user-visible messages (gettext, text domain
# "motus"). Included from the top-level CMakeLists.txt.
#  - po/LINGUAS lists the languages. Each po/LANG.po is compiled with
#    msgfmt --check into ${CMAKE_BINARY_DIR}/locale/LANG/LC_MESSAGES/motus.mo as
#    part of the default build (target motus-mo), where motus-cli finds it from
#    the build tree (<exe dir>/../locale), and is installed into LOCALEDIR.
#  - Target update-po regenerates po/motus.pot from the sources in po/POTFILES
#    and merges it into the .po files (po/po-tool.sh update).
include(GNUInstallDirs)
find_program(MOTUS_MSGFMT msgfmt REQUIRED)

set(MOTUS_PO_DIR ${CMAKE_SOURCE_DIR}/po)
file(STRINGS ${MOTUS_PO_DIR}/LINGUAS MOTUS_LINGUAS REGEX "^[^#]")
string(STRIP "${MOTUS_LINGUAS}" MOTUS_LINGUAS)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${MOTUS_PO_DIR}/LINGUAS)

set(motus_mo_files)
foreach(lang ${MOTUS_LINGUAS})
  set(dir ${CMAKE_BINARY_DIR}/locale/${lang}/LC_MESSAGES)
  add_custom_command(OUTPUT ${dir}/motus.mo
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${MOTUS_MSGFMT} --check --output-file=${dir}/motus.mo ${MOTUS_PO_DIR}/${lang}.po
    DEPENDS ${MOTUS_PO_DIR}/${lang}.po
    COMMENT "Compiling translations po/${lang}.po"
    VERBATIM)
  list(APPEND motus_mo_files ${dir}/motus.mo)
  install(FILES ${dir}/motus.mo DESTINATION ${CMAKE_INSTALL_LOCALEDIR}/${lang}/LC_MESSAGES)
endforeach()
add_custom_target(motus-mo ALL DEPENDS ${motus_mo_files})

add_custom_target(update-po
  COMMAND sh ${MOTUS_PO_DIR}/po-tool.sh update
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  COMMENT "Regenerating po/motus.pot and merging it into po/*.po"
  USES_TERMINAL
  VERBATIM)
