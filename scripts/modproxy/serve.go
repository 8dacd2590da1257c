package main

// serve writes the library and the commands at version into the proxy
// directory out, from the working tree: the commands requiring that
// library, with its hashes in their go.sum.
func serve(repo, version, out string) error {
	libFiles, err := treeFiles(repo, "")
	if err != nil {
		return err
	}
	libZip, libMod, err := writeModule(out, libPath, version, libFiles)
	if err != nil {
		return err
	}
	sums, err := sumLines(libPath, version, libZip, libMod)
	if err != nil {
		return err
	}
	cmdFiles, err := treeFiles(repo, "cmd")
	if err != nil {
		return err
	}
	mod, sum, err := requireLibrary(fileData(cmdFiles, "go.mod"), fileData(cmdFiles, "go.sum"), version, sums)
	if err != nil {
		return err
	}
	cmdFiles = replace(cmdFiles, dataFile{"go.mod", mod}, dataFile{"go.sum", sum})
	_, _, err = writeModule(out, cmdPath, version, cmdFiles)
	return err
}
