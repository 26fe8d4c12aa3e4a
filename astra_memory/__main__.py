from astra_memory.cli import main

main()
