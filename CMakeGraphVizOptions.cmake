# What `cmake --graphviz` draws (the `library_graph` target; the picture in
# docs/architecture.md): the project's own libraries and their link edges,
# not the executables, the Verilated RTL or the external packages.
set(GRAPHVIZ_GRAPH_NAME "gpumem libraries")
set(GRAPHVIZ_GRAPH_HEADER "rankdir = BT; node [ fontsize = \"11\" ];")
set(GRAPHVIZ_EXECUTABLES FALSE)
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_UNKNOWN_LIBS FALSE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
set(GRAPHVIZ_IGNORE_TARGETS "^gpumem_rtl_" "^gpumem_regmap_sv$")
