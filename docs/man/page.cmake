# SPDX-License-Identifier: MIT
# One manual page: the part pmc generates from its tables (pmc __man CMD), then the page's
# prose (docs/man/pmc-CMD.scd), run through scdoc. cmake -DPMC= -DCMD= -DPROSE= -DSCDOC=
# -DOUT= -P page.cmake (CMD empty for pmc(1) itself).
if(CMD)
	set(args __man ${CMD})
else()
	set(args __man)
endif()
execute_process(COMMAND ${PMC} ${args} OUTPUT_VARIABLE generated RESULT_VARIABLE rc
		ENCODING UTF-8)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "${PMC} ${args} failed (${rc})")
endif()
file(READ ${PROSE} prose)
file(WRITE ${OUT}.scd "${generated}${prose}")
execute_process(COMMAND ${SCDOC} INPUT_FILE ${OUT}.scd OUTPUT_FILE ${OUT}.tmp
		RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "scdoc failed on ${OUT}.scd (made from ${PROSE}): ${err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
