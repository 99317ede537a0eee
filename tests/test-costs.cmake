# Read by CTest after the discovered GoogleTest tests (tests/CMakeLists.txt):
# each long test's cost in seconds, so that a run with no measured costs yet
# (a fresh clone, CI) starts the long tests first. CTest starts tests in
# descending cost and otherwise in the order they were declared; a long test
# started last runs on alone while the other core waits.
# The figures: the larger of the main build's time and the sanitizer build's
# (sanitize.suite runs this build's tests again; docs/reliability.md, "What
# the suite costs"). A name that no longer exists is ignored; once a build has
# run its tests, CTest's own measurements take over.
foreach(_cost IN ITEMS
    "Cli.OnAScale16BfsTheBfsPrefetcherBeatsStrideAndBothBeatNone 60"
    "Outputs.StatsJsonAndTransactionLogAreByteIdenticalAcrossRunsAndSideBySide 59"
    "Cli.CosimOfAGeometryNotBuiltInVerilatesOnceAndThenReusesTheCache 45"
    "Cli.ExploreShowsItsStageOnATerminal 23"
    "Cli.CosimProvesEveryNamedBaselineInRtl 25"
    "Cli.OnEveryExampleTheRecommendationScoresAtLeastEveryCandidate 24"
    "MappingProperties.EveryMappingIsABijectionOntoTheAddressSpace 18"
    "Cli.CosimOfATlbWithAnotherResponseLatencyAgreesAndCatchesItsOneLineBug 17"
    "SystemReadAfterWrite.EveryReadReturnsTheLastWrite 15"
    "Cli.RunReproducesTheExplorersPredictionExactly 14"
    "Cli.CosimOfATwoStagePipelinedTranslatorAgreesAndCatchesItsOneLineBug 14"
    "Slurm.AJobArrayMergesToTheBytesOfALocalRun 13"
    "MappingProperties.NoDataAddressMapsOntoAPageTableLocation 13"
    "Plot.ExploreJsonAndExplorePlot 12"
    "RegisterBank.EveryRefusedAccessChangesNothing 11"
    "DocExamples.EveryExampleShownIsWhatTheBinaryPrints 11"
    "Readme.EveryUsingItLineRuns 10"
    "Cli.CosimAnnouncesEachStepOfAFirstUseOnATerminal 10"
    "Slurm.ACancelledTaskIsMissingAndResumeSubmitsItAlone 10"
    "TlbCosim.OneMillionRandomTranslationsOnTheLruVariant 8"
    "DramQueues.MemoryStaysFlatWhateverTheTraceLength 8"
    "DramController.MemoryStaysFlatWhateverTheTraceLength 8"
    "Cli.CosimOfAMatrixOnlyTranslatorChecksWhatItsSchemesCoverAndCatchesItsRankBug 6"
    "Cli.CosimProvesTheExplorersRecommendationPastedIntoTheConfig 6"
    "Outputs.AnInterruptedBfsRunEndsAtOnceAndItsMessageCountsWhatItsFilesCount 9"
    "Slurm.AFailingPointReportsItsStderr 5")
  string(REPLACE " " ";" _cost "${_cost}")
  list(GET _cost 0 _test)
  list(GET _cost 1 _seconds)
  set_tests_properties(${_test} PROPERTIES COST ${_seconds})
endforeach()
