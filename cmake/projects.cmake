# The example projects: kept as text in projects/X.motus.txt (diffable, in
# git) and built into build/projects/X.motus, the SQLite project form
# (docs/project-format.md), with 'motus-cli import'. The import writes a
# temporary file that is renamed when complete, so an interrupted build never
# leaves a half-made project behind.
file(GLOB MOTUS_PROJECT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/projects/*.motus.txt)
set(MOTUS_PROJECT_FILES)
foreach(src ${MOTUS_PROJECT_SOURCES})
  get_filename_component(name ${src} NAME)
  string(REGEX REPLACE "\\.motus\\.txt$" "" name ${name})
  set(out ${CMAKE_BINARY_DIR}/projects/${name}.motus)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/projects
    COMMAND ${CMAKE_COMMAND} -E rm -f ${out}.tmp ${out}.tmp-wal ${out}.tmp-shm
    COMMAND $<TARGET_FILE:motus-cli> import ${src} ${out}.tmp --quiet
    COMMAND ${CMAKE_COMMAND} -E rename ${out}.tmp ${out}
    DEPENDS ${src} motus-cli
    COMMENT "Building project ${name}.motus from its text form"
    VERBATIM)
  list(APPEND MOTUS_PROJECT_FILES ${out})
endforeach()
add_custom_target(projects ALL DEPENDS ${MOTUS_PROJECT_FILES})
